/** Size limits on the source amount: the strategy's range for the pair and the per-order ceiling per asset. */
import type { AssetConfig, Limits, PricingStrategy } from "../config/types.js";
import { describeAmount } from "./assets.js";
import { refuse, type QuoteRefusal } from "./refusal.js";

export function checkAmountLimits(
  fromAmount: bigint,
  from: AssetConfig,
  strategy: PricingStrategy,
  limits: Limits,
): QuoteRefusal | undefined {
  const pair = `${strategy.from} -> ${strategy.to}`;
  if (fromAmount < strategy.minAmount) {
    return refuse(
      "below_min",
      `${describeAmount(fromAmount, from)} is below the minimum ${describeAmount(strategy.minAmount, from)} for ${pair}`,
    );
  }
  if (fromAmount > strategy.maxAmount) {
    return refuse(
      "above_max",
      `${describeAmount(fromAmount, from)} is above the maximum ${describeAmount(strategy.maxAmount, from)} for ${pair}`,
    );
  }
  const orderCeiling = limits.maxOrderAmount[from.id];
  if (orderCeiling !== undefined && fromAmount > orderCeiling) {
    return refuse(
      "above_order_limit",
      `${describeAmount(fromAmount, from)} is above the per-order limit ${describeAmount(orderCeiling, from)}`,
    );
  }
  return undefined;
}
