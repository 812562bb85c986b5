/**
 * A short crash loop (the long one is `npm run chaos`): one swap of each family (between the anvil
 * chains, BTC to an EVM token, an EVM token to SOL), the solver SIGKILLed while all three are under way,
 * behind proxies failing 20 % of its RPC calls on every chain; every swap completes and nothing is lost.
 */
import { describe, expect, it } from "vitest";
import { runChaos } from "../../chaos/chaos.js";
import { FAMILIES } from "../../chaos/pairs.js";
import { describeReport } from "../../chaos/report.js";

describe("the solver in a crash loop with failing RPC", () => {
  it("completes a swap of every family with no double fill, no missed redeem and exact balances", async () => {
    const report = await runChaos({
      swaps: 3,
      kills: 1,
      failRate: 0.2,
      seed: 11,
      killAfterMs: [3_000, 7_000],
      swapSpacingMs: 500,
      timeoutMs: 240_000,
    });
    const why = describeReport(report).lines.join("\n");
    expect(
      report.families.map((f) => f.family),
      why,
    ).toEqual(FAMILIES);
    for (const family of report.families) {
      expect(family.swaps, why).toBe(1);
      expect(family.completed, why).toBe(1);
      expect(family.kills, why).toBeGreaterThanOrEqual(1);
      expect(family.doubleFills, why).toEqual([]);
      expect(family.missedRedeems, why).toEqual([]);
      expect(family.balanceMismatches, why).toEqual([]);
    }
    for (const chain of report.chains) expect(chain.rpcFaults, why).toBeGreaterThan(0);
    expect(describeReport(report).ok, why).toBe(true);
  }, 300_000);
});
