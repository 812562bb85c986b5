/**
 * Fee rates are whole sat/vB as bigint. Estimates are rounded up, then clamped to the chain's configured
 * floor and ceiling, so a broken estimator can neither stall the solver nor drain it.
 */
import { Transaction } from "bitcoinjs-lib";
import { vsizeOfWeight } from "./tx-size.js";

export class FeeRateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeeRateError";
  }
}

export interface FeeRateBounds {
  feeRateFloorSatVb: number;
  feeRateCeilingSatVb: number;
}

export function boundsOf(bounds: FeeRateBounds): { floor: bigint; ceiling: bigint } {
  const floor = BigInt(Math.ceil(bounds.feeRateFloorSatVb));
  const ceiling = BigInt(Math.floor(bounds.feeRateCeilingSatVb));
  if (floor < 1n)
    throw new FeeRateError(`feeRateFloorSatVb must be at least 1, got ${bounds.feeRateFloorSatVb}`);
  if (ceiling < floor) {
    throw new FeeRateError(
      `feeRateCeilingSatVb (${bounds.feeRateCeilingSatVb}) is below feeRateFloorSatVb (${bounds.feeRateFloorSatVb})`,
    );
  }
  return { floor, ceiling };
}

/** The estimate (null = the node has none) clamped to [floor, ceiling]; no estimate means the floor. */
export function clampFeeRate(estimateSatVb: bigint | null, bounds: FeeRateBounds): bigint {
  const { floor, ceiling } = boundsOf(bounds);
  if (estimateSatVb === null || estimateSatVb < floor) return floor;
  return estimateSatVb > ceiling ? ceiling : estimateSatVb;
}

/** sat/kvB (bitcoind's `estimatesmartfee` unit scaled to satoshis) to whole sat/vB, rounded up. */
export function satPerKvbToSatVb(satPerKvb: bigint): bigint {
  return (satPerKvb + 999n) / 1000n;
}

export function feeForWeight(weight: number, feeRateSatVb: bigint): bigint {
  return BigInt(vsizeOfWeight(weight)) * feeRateSatVb;
}

/** bitcoind's default `-incrementalrelayfee`: what a replacement must add per vbyte of its own size. */
export const INCREMENTAL_RELAY_SAT_VB = 1n;

/**
 * The least a replacement of `vsize` vbytes may pay (BIP-125 rules 3 and 4): the fees of everything it
 * evicts (the transaction it replaces and every in-mempool descendant of it), plus the incremental relay
 * fee for its own size.
 */
export function replacementFeeFloor(evictedFeeSats: bigint, vsize: number): bigint {
  return evictedFeeSats + BigInt(vsize) * INCREMENTAL_RELAY_SAT_VB;
}

/** The whole-sat/vB rate at which `vsize` vbytes pay at least `feeSats`. */
export function rateForFee(feeSats: bigint, vsize: number): bigint {
  const size = BigInt(vsize);
  return (feeSats + size - 1n) / size;
}

/**
 * The next rate for a replacement: at least +1 sat/vB over the old one and enough that the absolute fee
 * grows by the incremental relay fee for the new size (BIP-125 rules 3 and 4). Null when the ceiling
 * does not leave that room.
 */
export function bumpedFeeRate(
  oldRateSatVb: bigint,
  targetSatVb: bigint,
  bounds: FeeRateBounds,
): bigint | null {
  const { ceiling } = boundsOf(bounds);
  const minimum = oldRateSatVb + 1n;
  const wanted = targetSatVb > minimum ? targetSatVb : minimum;
  const rate = wanted > ceiling ? ceiling : wanted;
  return rate < minimum ? null : rate;
}

/**
 * Bounds for replacing a journaled transaction: the configured ones, with the ceiling raised when an
 * allowance lets this transaction's whole fee reach `maxFee` (an urgent redeem) at about its size.
 */
export function allowanceBounds<T extends FeeRateBounds>(
  bounds: T,
  attempt: { raw: string },
  allowance: { maxFee: bigint } | undefined,
): T {
  if (allowance === undefined) return bounds;
  const vsize = BigInt(Transaction.fromHex(attempt.raw).virtualSize());
  const allowed = Number(allowance.maxFee / vsize);
  return allowed > bounds.feeRateCeilingSatVb ? { ...bounds, feeRateCeilingSatVb: allowed } : bounds;
}
