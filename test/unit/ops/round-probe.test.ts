import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { InventorySnapshot } from "../../../src/pricing/inventory.js";
import { SolverMetrics } from "../../../src/ops/metrics.js";
import { RoundProbe } from "../../../src/ops/round-probe.js";
import { createLogger } from "../../../src/util/logger.js";

const logger = createLogger({
  level: "silent",
  destination: new Writable({ write: (_c, _e, done) => done() }),
});

function snapshot(balance: bigint): InventorySnapshot {
  return { balance, committed: 0n, floor: 0n, available: balance };
}

describe("RoundProbe", () => {
  it("records each chain's tip or its failure, and refreshes inventory and in-flight gauges", async () => {
    const metrics = new SolverMetrics({ processMetrics: false });
    const tips: string[] = [];
    let now = 5_000;
    const probe = new RoundProbe({
      chains: new Map([
        ["ethereum", { reader: { tipHeight: async () => 42n } }],
        ["bitcoin", { reader: { tipHeight: () => Promise.reject(new Error("connection refused")) } }],
      ]),
      assets: ["ethereum:usdc", "bitcoin:btc"],
      inventory: {
        snapshot: async (asset) => {
          if (asset === "bitcoin:btc") throw new Error("node down");
          return snapshot(700n);
        },
      },
      inFlight: () => new Map([["ethereum:usdc", 25n]]),
      metrics,
      onTip: (chain, height) => tips.push(`${chain}@${height}`),
      logger,
      now: () => now,
    });
    await probe.refresh();
    expect(probe.tips()).toEqual(
      new Map([
        ["ethereum", { height: 42n, error: null, atMs: 5_000 }],
        ["bitcoin", { height: null, error: "connection refused", atMs: 5_000 }],
      ]),
    );
    expect(tips).toEqual(["ethereum@42"]);
    const text = await metrics.metrics();
    expect(text).toContain('solver_chain_tip{chain="ethereum"} 42');
    expect(text).not.toContain('solver_chain_tip{chain="bitcoin"}');
    expect(text).toContain('solver_inventory{asset="ethereum:usdc"} 700');
    expect(text).not.toContain('solver_inventory{asset="bitcoin:btc"}');
    expect(text).toContain('solver_in_flight{asset="ethereum:usdc"} 25');
    expect(text).toContain('solver_in_flight{asset="bitcoin:btc"} 0');
    now = 6_000;
    probe.trigger();
    probe.trigger(); // one refresh at a time
    await probe.idle();
    expect(probe.tips().get("ethereum")?.atMs).toBe(6_000);
  });
});
