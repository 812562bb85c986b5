import { describe, expect, it } from "vitest";
import type { TipReading } from "../../../src/ops/round-probe.js";
import { solverHealth, type SolverHealthInput } from "../../../src/ops/solver-health.js";

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
