import { describe, expect, it } from "vitest";
import { p99BoundMs, parseQuoteHistogram } from "../../bench/load/quote-histogram.js";

const exposition = (given: number[], refused: number[]) => {
  const bounds = ["0.001", "0.01", "0.1", "+Inf"];
  return [
    "# HELP solver_quote_duration_seconds Time from a quote request reaching the solver's handler to its answer",
    "# TYPE solver_quote_duration_seconds histogram",
    ...bounds.map((le, i) => `solver_quote_duration_seconds_bucket{le="${le}",outcome="given"} ${given[i]}`),
    ...bounds.map(
      (le, i) => `solver_quote_duration_seconds_bucket{le="${le}",outcome="refused"} ${refused[i]}`,
    ),
    `solver_quote_duration_seconds_count{outcome="given"} ${given[3]}`,
    "solver_orders_seen_total 4",
  ].join("\n");
};

describe("the solver's quote histogram, read around a burst", () => {
  it("sums the outcomes per bucket bound", () => {
    expect([...parseQuoteHistogram(exposition([1, 5, 9, 10], [0, 1, 1, 2]))]).toEqual([
      [0.001, 1],
      [0.01, 6],
      [0.1, 10],
      [Number.POSITIVE_INFINITY, 12],
    ]);
  });

  it("bounds the p99 of what was answered between two readings", () => {
    const before = parseQuoteHistogram(exposition([1, 5, 9, 10], [0, 1, 1, 2]));
    // 100 more quotes: 98 under 10 ms, 2 under 100 ms.
    const after = parseQuoteHistogram(exposition([1, 103, 109, 110], [0, 1, 1, 2]));
    expect(p99BoundMs(before, after)).toBe(100);
    const fast = parseQuoteHistogram(exposition([1, 105, 109, 110], [0, 1, 1, 2]));
    expect(p99BoundMs(before, fast)).toBe(10);
    expect(p99BoundMs(before, before)).toBeNull();
  });
});
