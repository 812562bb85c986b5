import { describe, expect, it } from "vitest";
import { FeeCeilingError, bumpedFees, initialFees } from "../../../../src/chains/evm/fee-policy.js";

const GWEI = 1_000_000_000n;

describe("initialFees", () => {
  it("offers twice the base fee plus the priority fee", () => {
    expect(initialFees("c", 10n * GWEI, 2n * GWEI, 1_000n * GWEI)).toEqual({
      maxFeePerGas: 22n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
    });
  });

  it("caps at the ceiling, and keeps the priority fee within the cap", () => {
    expect(initialFees("c", 10n * GWEI, 2n * GWEI, 15n * GWEI)).toEqual({
      maxFeePerGas: 15n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
    });
    expect(initialFees("c", 10n * GWEI, 30n * GWEI, 15n * GWEI).maxPriorityFeePerGas).toBe(15n * GWEI);
  });

  it("throws when the base fee alone exceeds the ceiling, naming chain and amounts", () => {
    expect(() => initialFees("arbitrum", 20n * GWEI, GWEI, 15n * GWEI)).toThrow(FeeCeilingError);
    expect(() => initialFees("arbitrum", 20n * GWEI, GWEI, 15n * GWEI)).toThrow(
      /base fee 20000000000 wei on arbitrum exceeds the configured maxFeePerGasWei 15000000000/,
    );
  });
});

describe("bumpedFees", () => {
  const previous = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 2n * GWEI };

  it("raises both fee fields by 25%", () => {
    expect(bumpedFees(previous, null, 1_000n * GWEI)).toEqual({
      maxFeePerGas: 125n * GWEI,
      maxPriorityFeePerGas: 2_500_000_000n,
    });
  });

  it("takes today's terms when they are higher than the bump", () => {
    const fresh = { maxFeePerGas: 300n * GWEI, maxPriorityFeePerGas: 5n * GWEI };
    expect(bumpedFees(previous, fresh, 1_000n * GWEI)).toEqual(fresh);
  });

  it("caps at the ceiling while the rise still meets the 10% replacement rule", () => {
    expect(bumpedFees(previous, null, 111n * GWEI)).toEqual({
      maxFeePerGas: 111n * GWEI,
      maxPriorityFeePerGas: 2_500_000_000n,
    });
  });

  it("returns null at the ceiling or when the cap leaves less than +10%", () => {
    expect(bumpedFees(previous, null, 100n * GWEI)).toBeNull();
    expect(bumpedFees(previous, null, 109n * GWEI)).toBeNull();
  });

  it("returns null when the capped priority fee cannot rise by 10%", () => {
    const tipHeavy = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 100n * GWEI };
    expect(bumpedFees(tipHeavy, null, 105n * GWEI)).toBeNull();
  });

  it("rounds up, so tiny fees still rise, and a zero priority fee becomes one wei", () => {
    expect(bumpedFees({ maxFeePerGas: 7n, maxPriorityFeePerGas: 0n }, null, 1_000n)).toEqual({
      maxFeePerGas: 9n,
      maxPriorityFeePerGas: 1n,
    });
  });
});
