/**
 * The solver's own share of a quote's latency: its `solver_quote_duration_seconds` histogram (time from a
 * request reaching the quote handler to the answer), read from /metrics before and after the burst.
 */
const BUCKET_LINE = /^solver_quote_duration_seconds_bucket\{([^}]*)\} (\S+)$/;

/** Cumulative count per bucket bound in seconds (Infinity for +Inf), summed over outcomes. */
export type QuoteHistogram = Map<number, number>;

export async function readQuoteHistogram(opsUrl: string): Promise<QuoteHistogram> {
  const response = await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET ${opsUrl}/metrics answered ${response.status}`);
  return parseQuoteHistogram(await response.text());
}

export function parseQuoteHistogram(text: string): QuoteHistogram {
  const buckets: QuoteHistogram = new Map();
  for (const line of text.split("\n")) {
    const match = BUCKET_LINE.exec(line);
    const le = match?.[1]?.match(/le="([^"]+)"/)?.[1];
    if (match === null || le === undefined) continue;
    const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(match[2]));
  }
  return buckets;
}

/**
 * The bucket bound, in ms, under which 99 % of the quotes answered between the two readings fell: an upper
 * bound of the solver's own p99. Null when no quote was answered in between.
 */
export function p99BoundMs(before: QuoteHistogram, after: QuoteHistogram): number | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Number.POSITIVE_INFINITY) ?? 0) - (before.get(Number.POSITIVE_INFINITY) ?? 0);
  if (total <= 0) return null;
  for (const bound of bounds) {
    const within = (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
    if (within >= 0.99 * total) return bound * 1000;
  }
  return null;
}
