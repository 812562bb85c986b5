/**
 * The solver's quote: find the pair's strategy, check the size limits, convert by price, take fees
 * (widened or narrowed by the destination's inventory curve), then check that inventory and exposure can
 * carry the fill.
 */
import type { AssetConfig, InventoryCurve, Limits, PricingStrategy } from "../config/types.js";
import type { QuoteItem } from "../orderbook/types.js";
import { checkAmountLimits } from "./amount-limits.js";
import { gasAssetOf, type AssetIndex, type FeeCoins } from "./assets.js";
import { checkCapacity } from "./capacity.js";
import { convertAmount, type PricedAsset } from "./conversion.js";
import { applyFees } from "./fees.js";
import type { CapacityView } from "./inventory.js";
import { curveExtraBps, effectiveFeeBps } from "./inventory-curve.js";
import { PriceUnavailableError, readPrice, type PriceSource, type PriceSources } from "./price-source.js";
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
  /** Each chain's fee coin. */
  feeCoins: FeeCoins;
  prices: PriceSources;
  limits: Limits;
  /** Inventory curves per destination asset id. */
  curves: Readonly<Record<string, InventoryCurve>>;
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
  /** The fee taken: the strategy's feeBps plus the inventory curve's extra, within 0..10000. */
  feeBps: number;
}

export interface Quote {
  ok: true;
  item: QuoteItem;
  priced: PricedRequest;
}

async function withPrice(source: PriceSource, asset: AssetConfig): Promise<PricedAssetConfig> {
  return { ...asset, usdPrice: await readPrice(source, asset.id) };
}

async function readPrices(
  source: PriceSource,
  from: AssetConfig,
  to: AssetConfig,
): Promise<[PricedAssetConfig, PricedAssetConfig] | QuoteRefusal> {
  try {
    return await Promise.all([withPrice(source, from), withPrice(source, to)]);
  } catch (error) {
    if (error instanceof PriceUnavailableError) return refuse(error.reason, error.message);
    throw error;
  }
}

/**
 * The fee after the destination's inventory curve, read at `holding` (the inventory of now when absent),
 * or the refusal when that inventory cannot be read.
 */
async function feeFor(
  strategy: PricingStrategy,
  to: AssetConfig,
  deps: QuoteDeps,
  holding: bigint | undefined,
): Promise<number | QuoteRefusal> {
  const curve = deps.curves[to.id];
  if (curve === undefined) return strategy.feeBps;
  try {
    const held = holding ?? (await deps.capacity.holding(to.id));
    return effectiveFeeBps(strategy.feeBps, curveExtraBps(curve, held));
  } catch (error) {
    return refuse("inventory_unavailable", `cannot read inventory of ${to.id}: ${(error as Error).message}`);
  }
}

/**
 * Strategy, size limits, prices and fees: everything about a quote except the solver's capacity. The
 * inventory curve is read at the destination inventory before this fill: `holding` where the caller
 * knows it better (the fill gate, after the fills it admitted before), else the balance less every fill
 * already promised. Quotes and fills price alike, so an order filled at the inventory it was quoted at
 * pays exactly the quoted fee.
 */
export async function priceRequest(
  request: QuoteRequest,
  deps: QuoteDeps,
  holding?: bigint,
): Promise<PricedRequest | QuoteRefusal> {
  const strategy = findStrategy(deps.strategies, request.from, request.to);
  if (strategy === undefined) {
    return refuse("no_strategy", `this solver does not quote ${request.from} -> ${request.to}`);
  }
  if (!strategy.enabled) {
    return refuse("pair_disabled", `the pair ${request.from} -> ${request.to} is switched off`);
  }
  const fromAsset = deps.assets.get(request.from);
  const toAsset = deps.assets.get(request.to);
  if (fromAsset === undefined || toAsset === undefined) {
    const missing = fromAsset === undefined ? request.from : request.to;
    return refuse("unknown_asset", `asset ${missing} has a strategy but no asset config (decimals unknown)`);
  }
  const limitRefusal = checkAmountLimits(request.fromAmount, fromAsset, strategy, deps.limits);
  if (limitRefusal !== undefined) return limitRefusal;

  const prices = await readPrices(deps.prices[strategy.priceSource], fromAsset, toAsset);
  if (isRefusal(prices)) return prices;
  const [from, to] = prices;
  const feeBps = await feeFor(strategy, toAsset, deps, holding);
  if (isRefusal(feeBps)) return feeBps;
  const toAmount = applyFees(convertAmount(request.fromAmount, from, to), strategy, feeBps);
  if (toAmount <= 0n) {
    return refuse(
      "nothing_after_fees",
      `${request.fromAmount} smallest units of ${from.id} leave nothing of ${to.id} after fees`,
    );
  }
  return { strategy, from, to, fromAmount: request.fromAmount, toAmount, feeBps };
}

/** Whether the solver can carry `amount` of `to` now: inventory, its chain's coin for fees, exposure. */
export function checkCapacityFor(
  deps: QuoteDeps,
  to: PricedRequest["to"],
  amount: bigint,
): Promise<QuoteRefusal | undefined> {
  return checkCapacity(deps.capacity, deps.limits, to, amount, gasAssetOf(deps.feeCoins, to.chain));
}

export async function quoteFor(request: QuoteRequest, deps: QuoteDeps): Promise<Quote | QuoteRefusal> {
  const priced = await priceRequest(request, deps);
  if (isRefusal(priced)) return priced;
  const capacityRefusal = await checkCapacityFor(deps, priced.to, priced.toAmount);
  if (capacityRefusal !== undefined) return capacityRefusal;
  const item = buildQuoteItem({ solverId: deps.solverId, ...priced });
  return { ok: true, item, priced };
}
