/**
 * Fees, spread and fixed fee applied to a converted amount. Everything stays exact until one final
 * rounding down, so the solver never pays out a fraction of a smallest unit it did not price.
 */
import type { PricingStrategy } from "../config/types.js";
import { floorRatio, type Ratio } from "./decimal.js";

const BPS = 10_000n;

export class InvalidStrategyError extends Error {
  constructor(strategy: PricingStrategy, detail: string) {
    super(`pricing strategy ${strategy.from} -> ${strategy.to}: ${detail}`);
    this.name = "InvalidStrategyError";
  }
}

function basisPoints(
  strategy: PricingStrategy,
  field: "feeBps" | "spreadBps",
  value = strategy[field],
): bigint {
  if (!Number.isInteger(value) || value < 0 || value > 10_000) {
    throw new InvalidStrategyError(strategy, `${field} must be an integer from 0 to 10000, got ${value}`);
  }
  return BigInt(value);
}

/**
 * Destination amount after fees: `feeBps` comes off the value of the source amount, `spreadBps` off what is
 * left, then `fixedFee` (destination smallest units). May be zero or negative; the caller refuses those.
 * `feeBps` defaults to the strategy's; the inventory curve passes the widened or narrowed one.
 */
export function applyFees(gross: Ratio, strategy: PricingStrategy, feeBps = strategy.feeBps): bigint {
  const keepAfterFee = BPS - basisPoints(strategy, "feeBps", feeBps);
  const keepAfterSpread = BPS - basisPoints(strategy, "spreadBps");
  const net = floorRatio({ num: gross.num * keepAfterFee * keepAfterSpread, den: gross.den * BPS * BPS });
  return net - strategy.fixedFee;
}
