/**
 * EIP-1559 fee terms for the solver's transactions: generous on first try (2 × base fee absorbs several
 * full blocks of base-fee growth) and never above the operator's ceiling.
 */

export interface Eip1559Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export class FeeCeilingError extends Error {
  constructor(chain: string, baseFee: bigint, ceiling: bigint) {
    super(`base fee ${baseFee} wei on ${chain} exceeds the configured maxFeePerGasWei ${ceiling}`);
    this.name = "FeeCeilingError";
  }
}

/** Geth and most nodes accept a replacement only when both fee fields rise by at least 10%. */
const REPLACEMENT_MIN_PERCENT = 110n;
const BUMP_PERCENT = 125n;

function percentCeil(value: bigint, percent: bigint): bigint {
  return (value * percent + 99n) / 100n;
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

export function initialFees(
  chain: string,
  baseFee: bigint,
  suggestedPriority: bigint,
  ceiling: bigint,
): Eip1559Fees {
  if (baseFee > ceiling) throw new FeeCeilingError(chain, baseFee, ceiling);
  const maxFeePerGas = minBig(2n * baseFee + suggestedPriority, ceiling);
  return { maxFeePerGas, maxPriorityFeePerGas: minBig(suggestedPriority, maxFeePerGas) };
}

/**
 * Fees for a replacement: 25% over the previous ones (or today's fresh terms when higher), capped at
 * the ceiling. Null when the cap leaves less than the 10% rise nodes require.
 */
export function bumpedFees(
  previous: Eip1559Fees,
  fresh: Eip1559Fees | null,
  ceiling: bigint,
): Eip1559Fees | null {
  let maxFeePerGas = percentCeil(previous.maxFeePerGas, BUMP_PERCENT);
  let maxPriorityFeePerGas = maxBig(percentCeil(previous.maxPriorityFeePerGas, BUMP_PERCENT), 1n);
  if (fresh !== null) {
    maxFeePerGas = maxBig(maxFeePerGas, fresh.maxFeePerGas);
    maxPriorityFeePerGas = maxBig(maxPriorityFeePerGas, fresh.maxPriorityFeePerGas);
  }
  maxFeePerGas = minBig(maxFeePerGas, ceiling);
  maxPriorityFeePerGas = minBig(maxPriorityFeePerGas, maxFeePerGas);
  const enoughMax = maxFeePerGas >= percentCeil(previous.maxFeePerGas, REPLACEMENT_MIN_PERCENT);
  const enoughPriority =
    maxPriorityFeePerGas >= percentCeil(previous.maxPriorityFeePerGas, REPLACEMENT_MIN_PERCENT);
  if (!enoughMax || !enoughPriority || maxFeePerGas <= previous.maxFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * The per-gas ceiling for a replacement: the configured one, or higher when an allowance lets this
 * transaction's whole fee reach `maxFee` (an urgent redeem).
 */
export function allowanceCeiling(
  ceiling: bigint,
  gas: bigint,
  allowance: { maxFee: bigint } | undefined,
): bigint {
  if (allowance === undefined || gas <= 0n) return ceiling;
  return maxBig(ceiling, allowance.maxFee / gas);
}
