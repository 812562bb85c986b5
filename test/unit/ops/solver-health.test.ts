import { describe, expect, it } from "vitest";
import type { TipReading } from "../../../src/ops/round-probe.js";
import {
  solverHealth,
  solverLiveness,
  solverReadiness,
  WEDGED_MIN_MS,
  type SolverHealthInput,
} from "../../../src/ops/solver-health.js";

const NOW = 1_000_000;
const fresh = (height: bigint): TipReading => ({ height, error: null, atMs: NOW - 100 });

function input(overrides: Partial<SolverHealthInput> = {}): SolverHealthInput {
  return {
    round: { lastTickMs: NOW - 400, lastTickError: null },
    chains: ["ethereum", "arbitrum"],
    tips: new Map([
      ["ethereum", fresh(100n)],
      ["arbitrum", fresh(200n)],
    ]),
    pollIntervalMs: 1000,
    nowMs: NOW,
    ...overrides,
  };
}

describe("solverHealth", () => {
  it("is healthy after a recent clean round with every tip read", () => {
    const report = solverHealth(input());
    expect(report.healthy).toBe(true);
    expect(report.reasons).toEqual([]);
    expect(report.checks).toEqual({
      round: { endedMsAgo: 400, error: null },
      chains: { ethereum: { tip: 100n, readMsAgo: 100 }, arbitrum: { tip: 200n, readMsAgo: 100 } },
    });
  });

  it("is unhealthy before the first round and when the last one is more than 3 intervals old", () => {
    expect(solverHealth(input({ round: { lastTickMs: 0, lastTickError: null } })).reasons).toEqual([
      "round: no round has finished yet",
    ]);
    expect(solverHealth(input({ round: { lastTickMs: NOW - 3000, lastTickError: null } })).healthy).toBe(
      true,
    );
    expect(solverHealth(input({ round: { lastTickMs: NOW - 3001, lastTickError: null } })).reasons).toEqual([
      "round: last round ended 3.0 s ago, more than 3 poll intervals (3.0 s)",
    ]);
  });

  it("names a failed round and every chain that did not answer its tip", () => {
    const report = solverHealth(
      input({
        round: { lastTickMs: NOW - 10, lastTickError: "service answered 502" },
        tips: new Map([["arbitrum", { height: null, error: "connection refused", atMs: NOW - 5 }]]),
      }),
    );
    expect(report.healthy).toBe(false);
    expect(report.reasons).toEqual([
      "round: last round failed: service answered 502",
      "chain ethereum: tip not read yet",
      "chain arbitrum: tip read failed: connection refused",
    ]);
  });

  it("counts a tip read as stale after 3 intervals plus the read grace", () => {
    const old: TipReading = { height: 1n, error: null, atMs: NOW - 13_001 };
    const report = solverHealth(
      input({
        tips: new Map([
          ["ethereum", old],
          ["arbitrum", fresh(2n)],
        ]),
      }),
    );
    expect(report.reasons).toEqual(["chain ethereum: last tip read 13.0 s ago"]);
  });
});

describe("solverLiveness", () => {
  const at = (lastTickMs: number, pollIntervalMs = 1000) =>
    solverLiveness({ round: { lastTickMs }, startedMs: NOW - 1000, pollIntervalMs, nowMs: NOW });

  it("stays live through slow or failing rounds, and fails once no round ended for long", () => {
    expect(at(NOW - WEDGED_MIN_MS).healthy).toBe(true);
    expect(at(NOW - WEDGED_MIN_MS - 1).reasons).toEqual([
      "rounds: last round ended 300.0 s ago, more than 300.0 s",
    ]);
    // Ten poll intervals when those are longer than the floor.
    expect(at(NOW - 500_000, 60_000).healthy).toBe(true);
    expect(at(NOW - 600_001, 60_000).healthy).toBe(false);
  });

  it("counts from the start until a first round ends", () => {
    expect(at(0).healthy).toBe(true);
    const late = solverLiveness({
      round: { lastTickMs: 0 },
      startedMs: NOW - WEDGED_MIN_MS - 5000,
      pollIntervalMs: 1000,
      nowMs: NOW,
    });
    expect(late.reasons).toEqual([
      "rounds: no round has ended since the start 305.0 s ago, more than 300.0 s",
    ]);
  });
});

describe("solverReadiness", () => {
  const ready = (overrides: Partial<Parameters<typeof solverReadiness>[0]> = {}) =>
    solverReadiness({
      chains: ["ethereum", "arbitrum"],
      tips: input().tips,
      pollIntervalMs: 1000,
      nowMs: NOW,
      livePrices: [{ assetId: "ethereum:eth", refusal: null }],
      leaseProblem: null,
      ...overrides,
    });

  it("is ready when every chain answers, every live price is usable and the lease is held", () => {
    expect(ready()).toEqual({ healthy: true, reasons: [] });
  });

  it("names each chain, price and the lease that keep it from being ready", () => {
    const report = ready({
      tips: new Map([["ethereum", { height: 1n, error: "connect ECONNREFUSED", atMs: NOW }]]),
      livePrices: [
        { assetId: "ethereum:eth", refusal: "price_stale: 1 of 3 sources fresh, 2 needed" },
        { assetId: "arbitrum:eth", refusal: null },
      ],
      leaseProblem: "held by another instance (b on host, pid 7)",
    });
    expect(report.healthy).toBe(false);
    expect(report.reasons).toEqual([
      "journal lease: held by another instance (b on host, pid 7)",
      "chain ethereum: tip read failed: connect ECONNREFUSED",
      "chain arbitrum: tip not read yet",
      "price ethereum:eth: price_stale: 1 of 3 sources fresh, 2 needed",
    ]);
  });
});
