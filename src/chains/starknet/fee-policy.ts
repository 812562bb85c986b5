/**
 * The resource bounds the solver signs: the node's estimate with a margin, each price capped at its
 * configured ceiling, and the whole at most the fee ceiling (or an urgent action's allowance). A
 * replacement of the same nonce raises the tip and the L2 gas price by `escalationPercent` (at least the
 * 10% the node asks), and is never signed past those ceilings.
 */
import type { FeeAllowance } from "../chain.js";
import { maxFeeOf, type InvokeBounds } from "./invoke.js";
import type { FeeEstimate } from "./rpc-schemas.js";
import type { StarknetChainConfig } from "./config.js";

/**
 * L2 gas the account's `__validate__` may take, which an estimate that skips validation leaves out: a
 * Stark signature check. An assumption, not a published figure; the margin covers estimates on top.
 */
export const VALIDATE_L2_GAS = 1_000_000n;
/** The tip of a first attempt, FRI per L2 gas unit: non-zero, so that a raise is one. */
export const FIRST_TIP = 1n;

type FeeSettings = Pick<
  StarknetChainConfig,
  | "maxL1GasPriceFri"
  | "maxL2GasPriceFri"
  | "maxL1DataGasPriceFri"
  | "maxFeeFri"
  | "feeMarginPercent"
  | "escalationPercent"
>;

function withMargin(value: bigint, percent: number): bigint {
  return (value * BigInt(100 + percent) + 99n) / 100n;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** The most one transaction may be charged: the fee ceiling, or an allowance above it. */
export function feeCap(settings: FeeSettings, allowance?: FeeAllowance): bigint {
  return allowance !== undefined && allowance.maxFee > settings.maxFeeFri
    ? allowance.maxFee
    : settings.maxFeeFri;
}

/** Bounds from an estimate; null when even the estimate's own amounts at the capped prices pass the cap. */
export function boundsFromEstimate(
  estimate: FeeEstimate,
  settings: FeeSettings,
  allowance?: FeeAllowance,
): InvokeBounds | null {
  const margin = settings.feeMarginPercent;
  const bounds: InvokeBounds = {
    l1Gas: {
      maxAmount: withMargin(estimate.l1_gas_consumed, margin),
      maxPricePerUnit: min(withMargin(estimate.l1_gas_price, margin), settings.maxL1GasPriceFri),
    },
    l2Gas: {
      maxAmount: withMargin(estimate.l2_gas_consumed + VALIDATE_L2_GAS, margin),
      maxPricePerUnit: min(withMargin(estimate.l2_gas_price, margin), settings.maxL2GasPriceFri),
    },
    l1DataGas: {
      maxAmount: withMargin(estimate.l1_data_gas_consumed, margin),
      maxPricePerUnit: min(withMargin(estimate.l1_data_gas_price, margin), settings.maxL1DataGasPriceFri),
    },
    tip: FIRST_TIP,
  };
  return maxFeeOf(bounds) <= feeCap(settings, allowance) ? bounds : null;
}

function raised(value: bigint, percent: number): bigint {
  const up = (value * BigInt(100 + percent) + 99n) / 100n;
  return up > value ? up : value + 1n;
}

/**
 * The bounds of a replacement: tip and L2 gas price each raised by `escalationPercent`, everything else
 * kept; null when that passes the L2 price ceiling (unless an allowance lifts it) or the fee cap.
 */
export function escalatedBounds(
  bounds: InvokeBounds,
  settings: FeeSettings,
  allowance?: FeeAllowance,
  capFactor = 1n,
): InvokeBounds | null {
  const percent = settings.escalationPercent;
  const next: InvokeBounds = {
    ...bounds,
    l2Gas: { ...bounds.l2Gas, maxPricePerUnit: raised(bounds.l2Gas.maxPricePerUnit, percent) },
    tip: raised(bounds.tip, percent),
  };
  const priceCeiling = settings.maxL2GasPriceFri * capFactor;
  if (allowance === undefined && next.l2Gas.maxPricePerUnit > priceCeiling) return null;
  return maxFeeOf(next) <= feeCap(settings, allowance) * capFactor ? next : null;
}
