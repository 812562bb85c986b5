/** Order statistics of the load benchmark: percentiles of one run, medians over runs. */

/** The value below which `p` percent of the sorted values lie (nearest rank); null for no values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

export function sortedNumbers(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Median of the values present; null when there are none (a figure no run could measure). */
export function median(values: readonly (number | null)[]): number | null {
  const present = sortedNumbers(values.filter((v): v is number => v !== null && Number.isFinite(v)));
  if (present.length === 0) return null;
  const middle = Math.floor(present.length / 2);
  if (present.length % 2 === 1) return present[middle] ?? null;
  return ((present[middle - 1] ?? 0) + (present[middle] ?? 0)) / 2;
}

export interface Spread {
  p50: number | null;
  p99: number | null;
  max: number | null;
  count: number;
}

export function spread(values: Iterable<number>): Spread {
  const sorted = sortedNumbers(values);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? null : (sorted[sorted.length - 1] ?? null),
    count: sorted.length,
  };
}
