/**
 * The wire form of a quote (docs/service-api.md, "Quotes"): amounts as decimal strings, values in USD
 * with two decimals.
 */
import type { AssetAmount, QuoteItem } from "../orderbook/types.js";
import type { AssetConfig, PricingStrategy } from "../config/types.js";
import { usdCentsDown, type PricedAsset } from "./conversion.js";
import { formatCents, formatUnits } from "./decimal.js";

export function assetAmount(amount: bigint, asset: AssetConfig & PricedAsset): AssetAmount {
  return {
    asset: asset.id,
    amount: amount.toString(),
    display: formatUnits(amount, asset.decimals),
    value: formatCents(usdCentsDown(amount, asset)),
  };
}

export interface QuoteItemInput {
  solverId: string;
  strategy: PricingStrategy;
  from: AssetConfig & PricedAsset;
  to: AssetConfig & PricedAsset;
  fromAmount: bigint;
  toAmount: bigint;
  /** The fee actually taken (strategy fee and inventory curve). */
  feeBps: number;
  /** Network fees and minimum profit charged, destination smallest units. */
  charge: { total: bigint };
}

export function buildQuoteItem(input: QuoteItemInput): QuoteItem {
  const { strategy, to } = input;
  return {
    source: assetAmount(input.fromAmount, input.from),
    destination: assetAmount(input.toAmount, to),
    solver_id: input.solverId,
    estimated_time: strategy.estimatedTimeSeconds,
    slippage: strategy.spreadBps,
    fee: input.feeBps,
    // Everything charged in destination units beside the bps fee: the strategy's own fixed fee, the
    // order's expected network fees and the minimum profit.
    fixed_fee: formatUnits(strategy.fixedFee + input.charge.total, to.decimals),
  };
}
