/**
 * The solver's quote: find the pair's strategy, check the size limits, convert by price, take fees,
 * then check that inventory and exposure can carry the fill.
 */
import type { AssetConfig, Limits, PricingStrategy } from "../config/types.js";
import type { QuoteItem } from "../orderbook/types.js";
import { checkAmountLimits } from "./amount-limits.js";
import { gasAssetOf, type AssetIndex } from "./assets.js";
import { checkCapacity } from "./capacity.js";
import { convertAmount, type PricedAsset } from "./conversion.js";
import { applyFees } from "./fees.js";
import type { CapacityView } from "./inventory.js";
import { PriceUnavailableError, readPrice, type PriceSource } from "./price-source.js";
import { buildQuoteItem } from "./quote-item.js";
import { isRefusal, refuse, type QuoteRefusal } from "./refusal.js";
import { findStrategy } from "./strategy.js";

export interface QuoteRequest {
  from: string;
  to: string;
  /** Source smallest units. */
  fromAmount: bigint;
}

export interface QuoteDeps {
  /** Hex id the service knows this solver by. */
  solverId: string;
  strategies: readonly PricingStrategy[];
  assets: AssetIndex;
  prices: PriceSource;
  limits: Limits;
  capacity: CapacityView;
}

export type PricedAssetConfig = AssetConfig & PricedAsset;

/** A request priced by its strategy, before inventory and exposure are considered. */
export interface PricedRequest {
  strategy: PricingStrategy;
  from: PricedAssetConfig;
  to: PricedAssetConfig;
  fromAmount: bigint;
  /** Destination smallest units after fees, rounded down; always > 0. */
  toAmount: bigint;
}

export interface Quote {
  ok: true;
  item: QuoteItem;
  priced: PricedRequest;
}

async function withPrice(deps: QuoteDeps, asset: AssetConfig): Promise<PricedAssetConfig> {
  return { ...asset, usdPrice: await readPrice(deps.prices, asset.id) };
}

async function readPrices(
  deps: QuoteDeps,
  from: AssetConfig,
  to: AssetConfig,
): Promise<[PricedAssetConfig, PricedAssetConfig] | QuoteRefusal> {
  try {
    return await Promise.all([withPrice(deps, from), withPrice(deps, to)]);
  } catch (error) {
    if (error instanceof PriceUnavailableError) return refuse("price_unavailable", error.message);
    throw error;
  }
}

/** Strategy, size limits, prices and fees: everything about a quote except the solver's capacity. */
export async function priceRequest(
  request: QuoteRequest,
  deps: QuoteDeps,
): Promise<PricedRequest | QuoteRefusal> {
  const strategy = findStrategy(deps.strategies, request.from, request.to);
  if (strategy === undefined) {
    return refuse("no_strategy", `this solver does not quote ${request.from} -> ${request.to}`);
  }
  const fromAsset = deps.assets.get(request.from);
  const toAsset = deps.assets.get(request.to);
  if (fromAsset === undefined || toAsset === undefined) {
    const missing = fromAsset === undefined ? request.from : request.to;
    return refuse("unknown_asset", `asset ${missing} has a strategy but no asset config (decimals unknown)`);
  }
  const limitRefusal = checkAmountLimits(request.fromAmount, fromAsset, strategy, deps.limits);
  if (limitRefusal !== undefined) return limitRefusal;

  const prices = await readPrices(deps, fromAsset, toAsset);
  if (isRefusal(prices)) return prices;
  const [from, to] = prices;
  const toAmount = applyFees(convertAmount(request.fromAmount, from, to), strategy);
  if (toAmount <= 0n) {
    return refuse(
      "nothing_after_fees",
      `${request.fromAmount} smallest units of ${from.id} leave nothing of ${to.id} after fees`,
    );
  }
  return { strategy, from, to, fromAmount: request.fromAmount, toAmount };
}

export async function quoteFor(request: QuoteRequest, deps: QuoteDeps): Promise<Quote | QuoteRefusal> {
  const priced = await priceRequest(request, deps);
  if (isRefusal(priced)) return priced;
  const capacityRefusal = await checkCapacity(
    deps.capacity,
    deps.limits,
    priced.to,
    priced.toAmount,
    gasAssetOf(deps.assets, priced.to.chain),
  );
  if (capacityRefusal !== undefined) return capacityRefusal;
  const item = buildQuoteItem({ solverId: deps.solverId, ...priced });
  return { ok: true, item, priced };
}
