import { describe, expect, it } from "vitest";
import {
  bumpedFeeRate,
  clampFeeRate,
  FeeRateError,
  rateForFee,
  replacementFeeFloor,
  satPerKvbToSatVb,
} from "../../../../src/chains/bitcoin/fee.js";

const bounds = { feeRateFloorSatVb: 2, feeRateCeilingSatVb: 50 };

describe("fee rates", () => {
  it("clamps estimates into [floor, ceiling] and uses the floor without one", () => {
    expect(clampFeeRate(null, bounds)).toBe(2n);
    expect(clampFeeRate(1n, bounds)).toBe(2n);
    expect(clampFeeRate(17n, bounds)).toBe(17n);
    expect(clampFeeRate(400n, bounds)).toBe(50n);
  });

  it("rounds sat/kvB up to whole sat/vB", () => {
    expect(satPerKvbToSatVb(1000n)).toBe(1n);
    expect(satPerKvbToSatVb(1001n)).toBe(2n);
    expect(satPerKvbToSatVb(2500n)).toBe(3n);
  });

  it("bumps by at least 1 sat/vB, follows a higher target, and stops at the ceiling", () => {
    expect(bumpedFeeRate(5n, 3n, bounds)).toBe(6n);
    expect(bumpedFeeRate(5n, 20n, bounds)).toBe(20n);
    expect(bumpedFeeRate(45n, 80n, bounds)).toBe(50n);
    expect(bumpedFeeRate(50n, 80n, bounds)).toBeNull();
  });

  it("asks a replacement for everything it evicts plus 1 sat/vB of its own size", () => {
    // A 150 vB original paying 300 sat with descendants paying 4,000 sat, replaced by 150 vB.
    expect(replacementFeeFloor(300n + 4_000n, 150)).toBe(4_450n);
    expect(replacementFeeFloor(0n, 111)).toBe(111n);
  });

  it("finds the whole rate that pays a fee for a size, rounding up", () => {
    expect(rateForFee(4_450n, 150)).toBe(30n);
    expect(rateForFee(4_500n, 150)).toBe(30n);
    expect(rateForFee(4_501n, 150)).toBe(31n);
  });

  it("rejects bounds that make no sense", () => {
    expect(() => clampFeeRate(5n, { feeRateFloorSatVb: 0, feeRateCeilingSatVb: 10 })).toThrow(FeeRateError);
    expect(() => clampFeeRate(5n, { feeRateFloorSatVb: 10, feeRateCeilingSatVb: 5 })).toThrow(/below/);
  });
});
