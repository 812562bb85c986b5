/**
 * A short crash loop (the long one is `npm run chaos`): a few swaps both ways between the anvil chains,
 * the solver SIGKILLed again and again behind proxies failing 30 % of its RPC calls; every swap
 * completes and nothing is lost.
 */
import { describe, expect, it } from "vitest";
import { describeReport, runChaos } from "../../chaos/chaos.js";

describe("the solver in a crash loop with failing RPC", () => {
  it("completes every swap with no double fill, no missed redeem and exact balances", async () => {
    const report = await runChaos({
      swaps: 3,
      kills: 5,
      failRate: 0.3,
      seed: 11,
      killAfterMs: [1_500, 4_000],
      swapSpacingMs: 1_000,
      timeoutMs: 240_000,
    });
    const { lines } = describeReport(report);
    expect(report.doubleFills, lines.join("\n")).toEqual([]);
    expect(report.missedRedeems, lines.join("\n")).toEqual([]);
    expect(report.balanceMismatches, lines.join("\n")).toEqual([]);
    expect(report.completed, lines.join("\n")).toBe(3);
    expect(report.kills).toBeGreaterThanOrEqual(5);
    expect(report.rpcFaults).toBeGreaterThan(0);
  }, 300_000);
});
