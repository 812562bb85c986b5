import { describe, expect, it } from "vitest";
import {
  allowanceBounds,
  computeUnitLimit,
  computeUnitPrice,
  ESCALATION_START_MICRO_LAMPORTS,
  recentPrice,
  transactionFeeLamports,
} from "../../../../src/chains/solana/priority-fee.js";

const bounds = { computeUnitPriceFloorMicroLamports: 100n, computeUnitPriceCeilingMicroLamports: 50_000n };

describe("Solana priority fees", () => {
  it("pays the 75th percentile of what recent slots paid, within floor and ceiling", () => {
    expect(recentPrice([])).toBe(0n);
    expect(recentPrice([5n, 1n, 3n, 2n, 4n, 9n, 7n, 8n])).toBe(7n);
    expect(computeUnitPrice([], 0, bounds)).toBe(100n);
    expect(computeUnitPrice([0n, 2_000n, 3_000n, 4_000n], 0, bounds)).toBe(3_000n);
    expect(computeUnitPrice([90_000n], 0, bounds)).toBe(50_000n);
  });

  it("doubles the price for each earlier attempt of the action that expired unlanded, up to the ceiling", () => {
    const free = { computeUnitPriceFloorMicroLamports: 0n, computeUnitPriceCeilingMicroLamports: 1_000_000n };
    expect(computeUnitPrice([], 0, free)).toBe(0n);
    expect(computeUnitPrice([], 1, free)).toBe(2n * ESCALATION_START_MICRO_LAMPORTS);
    expect(computeUnitPrice([30_000n], 2, free)).toBe(120_000n);
    expect(computeUnitPrice([30_000n], 10, free)).toBe(1_000_000n);
  });

  it("charges 5000 lamports a signature plus price times limit, rounded up", () => {
    expect(transactionFeeLamports(1, 0n, 200_000n)).toBe(5_000n);
    expect(transactionFeeLamports(1, 1n, 200_000n)).toBe(5_001n);
    expect(transactionFeeLamports(2, 10_000n, 30_000n)).toBe(10_300n);
  });

  it("lets an allowance raise the ceiling to the price its whole fee allows, never lower it", () => {
    // 1,005,000 lamports allowed, 5,000 for the signature: 1,000,000 for 40,000 units is 25,000,000 per unit.
    const raised = allowanceBounds(bounds, 1, 40_000n, { maxFee: 1_005_000n });
    expect(raised).toEqual({ ...bounds, computeUnitPriceCeilingMicroLamports: 25_000_000n });
    expect(transactionFeeLamports(1, 25_000_000n, 40_000n)).toBe(1_005_000n);
    // Rounded so that the fee stays within the allowance.
    const odd = allowanceBounds(bounds, 1, 30_000n, { maxFee: 1_005_000n });
    const price = odd.computeUnitPriceCeilingMicroLamports;
    expect(transactionFeeLamports(1, price, 30_000n)).toBeLessThanOrEqual(1_005_000n);
    expect(transactionFeeLamports(1, price + 1n, 30_000n)).toBeGreaterThan(1_005_000n);
    // An escalated rebuild may now pay above the configured ceiling, within the allowance.
    expect(computeUnitPrice([30_000n], 3, raised)).toBe(240_000n);
    expect(computeUnitPrice([30_000n], 3, bounds)).toBe(50_000n);
    // Less than the ceiling already allows, or none: the configured bounds.
    expect(allowanceBounds(bounds, 1, 40_000n, { maxFee: 6_000n })).toEqual(bounds);
    expect(allowanceBounds(bounds, 1, 40_000n, undefined)).toEqual(bounds);
  });

  it("asks for the simulated units plus a fifth and a margin, never above the cluster's cap", () => {
    expect(computeUnitLimit(10_000n)).toBe(14_000n);
    expect(computeUnitLimit(1_300_000n)).toBe(1_400_000n);
  });
});
