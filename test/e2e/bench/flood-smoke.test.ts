/**
 * The quote-flood benchmark's flooded arm with a small N (`npm run bench:flood` runs both arms and
 * compares them): every swap fills and completes while a flood signed with the service's secret hits the
 * solver's quote endpoint, every flood request is answered, and those beyond the solver's rate limit are
 * answered 429. Whether fills slow down is a matter of timings, judged in the benchmark, not here.
 */
import { describe, expect, it } from "vitest";
import { runLoad } from "../../bench/load/run-load.js";

const ORDERS = 8;
/** Low enough that the flood is beyond them within a second, however slow the machine. */
const LIMITS = { maxConcurrent: 256, perClientPerSecond: 20, perClientBurst: 50 };

describe("quote flood benchmark (smoke)", () => {
  it(`fills ${ORDERS} swaps under a signed quote flood that the solver bounds with 429`, async () => {
    const figures = await runLoad({
      orders: ORDERS,
      quoteBurst: 8,
      quoteLimits: LIMITS,
      quoteFlood: { connections: 8, signed: true },
      timeoutMs: 60_000,
    });

    expect(figures.problems).toEqual([]);
    expect(figures.completed).toBe(ORDERS);
    // Every fill was seen, after its source's confirmations, in blocks and in time.
    expect(figures.fillLatencyBlocks.count).toBe(ORDERS);
    expect(figures.fillLatencyMs.count).toBe(ORDERS);
    expect(figures.fillLatencyMs.p50).toBeGreaterThanOrEqual(0);

    const flood = figures.flood;
    expect(flood).not.toBeNull();
    if (flood === null) return;
    expect(flood.signed).toBe(true);
    // Every request got an answer at once: a quote, a refusal, or 429 beyond the rate; none unanswered.
    expect(Object.keys(flood.byStatus).every((status) => ["200", "422", "429"].includes(status))).toBe(true);
    expect(flood.byStatus["429"]).toBeGreaterThan(0);
    expect(flood.byStatus["200"] ?? 0).toBeGreaterThan(0);
    expect(flood.sent).toBe(Object.values(flood.byStatus).reduce((sum, n) => sum + n, 0));
  }, 150_000);
});
