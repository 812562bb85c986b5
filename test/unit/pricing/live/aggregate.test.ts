import { describe, expect, it } from "vitest";
import { aggregate, type SourceReading } from "../../../../src/pricing/live/aggregate.js";
import { applyPeg } from "../../../../src/pricing/live/peg.js";
import { ratioToDecimal } from "../../../../src/pricing/decimal.js";

const NOW = 1_000_000;
const reading = (label: string, price: string | null, ageMs = 0, maxAgeMs = 60_000): SourceReading => ({
  label,
  maxAgeMs,
  observation: price === null ? null : { price, atMs: NOW - ageMs },
  error: price === null ? "connection refused" : null,
});
const rule = { minSources: 2, maxDeviationBps: 100 };

function priceOf(result: ReturnType<typeof aggregate>): string {
  if (!result.ok) throw new Error(result.detail);
  return ratioToDecimal(result.price);
}

describe("aggregate", () => {
  it("takes the median of an odd number of fresh answers", () => {
    const readings = [reading("a", "60010"), reading("b", "59990.5"), reading("c", "60000")];
    expect(priceOf(aggregate(readings, rule, NOW))).toBe("60000");
  });

  it("takes the exact mean of the two middle answers of an even number", () => {
    const readings = [
      reading("a", "60000.01"),
      reading("b", "60000"),
      reading("c", "60010"),
      reading("d", "59999"),
    ];
    expect(priceOf(aggregate(readings, rule, NOW))).toBe("60000.005");
  });

  it("leaves out answers older than their source's maximum age, and failed sources", () => {
    const readings = [
      reading("feed", "50000", 90_000),
      reading("b", "60000"),
      reading("c", "60002"),
      reading("d", null),
    ];
    const result = aggregate(readings, rule, NOW);
    expect(priceOf(result)).toBe("60001");
    expect(result.ok && result.used).toEqual(["b", "c"]);
  });

  it("refuses as stale when fewer than minSources are fresh, naming each one left out", () => {
    const result = aggregate(
      [reading("feed", "60000", 3_601_000, 3_600_000), reading("b", "60000"), reading("c", null)],
      rule,
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      reason: "price_stale",
      detail: "1 of 3 sources fresh, 2 needed (feed: 3601 s old, max 3600 s; c: connection refused)",
    });
  });

  it("refuses when fresh answers disagree by more than maxDeviationBps of the median", () => {
    const agree = [reading("a", "60000"), reading("b", "60600")];
    expect(aggregate(agree, rule, NOW).ok).toBe(true); // 600 / 60300 = 99.5 bps
    const result = aggregate([reading("a", "60000"), reading("b", "60700")], rule, NOW);
    expect(result).toMatchObject({ ok: false, reason: "price_sources_disagree" });
    expect(!result.ok && result.detail).toBe("sources disagree by 115 bps, max 100 (a 60000, b 60700)");
  });

  it("counts an answer timed ahead of the local clock as fresh", () => {
    expect(aggregate([reading("a", "1", -5_000)], { minSources: 1, maxDeviationBps: 0 }, NOW).ok).toBe(true);
  });
});

describe("applyPeg", () => {
  const btc = { num: 60_000n, den: 1n };
  const own = (price: string) =>
    aggregate([reading("wbtc feed", price)], { minSources: 1, maxDeviationBps: 0 }, NOW);

  it("prices a wrapped asset as its base while its own USD price stays within the guard", () => {
    const result = applyPeg(own("59000"), btc, { base: "x:btc", maxDeviationBps: 200, quotedIn: "usd" });
    expect(priceOf(result)).toBe("60000");
  });

  it("refuses a de-peg beyond the guard", () => {
    const result = applyPeg(own("58700"), btc, { base: "x:btc", maxDeviationBps: 200, quotedIn: "usd" });
    expect(result).toMatchObject({ ok: false, reason: "price_depegged" });
    expect(!result.ok && result.detail).toBe("its own price 58700 is 216 bps from 60000 (USD), max 200");
  });

  it("compares a ratio feed (quoted in the base) with 1", () => {
    const peg = { base: "x:btc", maxDeviationBps: 50, quotedIn: "base" as const };
    expect(priceOf(applyPeg(own("0.9971"), btc, peg))).toBe("60000");
    expect(applyPeg(own("0.9940"), btc, peg)).toMatchObject({ ok: false, reason: "price_depegged" });
  });

  it("refuses when the asset's own price cannot be read: the peg cannot be checked", () => {
    const stale = aggregate(
      [reading("wbtc feed", "60000", 120_000)],
      { minSources: 1, maxDeviationBps: 0 },
      NOW,
    );
    const result = applyPeg(stale, btc, { base: "x:btc", maxDeviationBps: 200, quotedIn: "usd" });
    expect(result).toMatchObject({ ok: false, reason: "price_stale" });
    expect(!result.ok && result.detail).toMatch(/^cannot check the peg to x:btc: 0 of 1 sources fresh/);
  });
});
