import { describe, expect, it } from "vitest";
import { percentile, quoteBurst } from "../../support/quote-burst.js";

describe("quotes under a burst", () => {
  it("answers 1,000 concurrent quote requests from memory, without a single network read", async () => {
    const burst = await quoteBurst(1_000);
    expect(burst.failures).toBe(0);
    // 0.01 BTC at the median 60000, less 30 bps.
    expect([...burst.amounts]).toEqual(["598200000"]);
    expect(burst.readsDuringBurst).toBe(0);
    const p50 = percentile(burst.latenciesMs, 50);
    const p99 = percentile(burst.latenciesMs, 99);
    console.log(
      `1000 concurrent quotes: ${burst.totalMs.toFixed(0)} ms in all, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${burst.latenciesMs.at(-1)?.toFixed(1)} ms; in process ${burst.inProcessMs.toFixed(0)} ms`,
    );
    // Its time is a benchmark's to judge (`npm run bench:load`), not a test's on a shared machine: what
    // this holds is that nothing waited on a price source.
  });
});
