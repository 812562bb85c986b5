/**
 * The solver's quote: find the pair's strategy, check the size limits, convert by price, take fees
 * (widened or narrowed by the destination's inventory curve) and the order's network fees and minimum
 * profit, then check that inventory and exposure can carry the fill.
 */
import type { AssetConfig, InventoryCurve, Limits, PricingStrategy } from "../config/types.js";
import type { QuoteItem } from "../orderbook/types.js";
import { checkAmountLimits } from "./amount-limits.js";
import { describeAmount, gasAssetOf, type AssetIndex, type FeeCoins } from "./assets.js";
import { checkCapacity } from "./capacity.js";
import { convertAmount, type PricedAsset } from "./conversion.js";
import { applyFees } from "./fees.js";
import type { CapacityView } from "./inventory.js";
import { curveExtraBps, effectiveFeeBps } from "./inventory-curve.js";
import type { NetworkCharge } from "./network-fees/charge.js";
import type { NetworkFees } from "./network-fees/view.js";
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
  /** Each chain's network fees of now, and what an order is charged for them. */
  networkFees: NetworkFees;
}

export type PricedAssetConfig = AssetConfig & PricedAsset;

/** A request priced by its strategy, before inventory and exposure are considered. */
export interface PricedRequest {
  strategy: PricingStrategy;
  from: PricedAssetConfig;
  to: PricedAssetConfig;
  fromAmount: bigint;
  /** Destination smallest units after the strategy's fees, before the network charge; always > 0. */
  beforeNetwork: bigint;
  /** The order's expected network fees and the minimum profit, as charged now. */
  charge: NetworkCharge;
  /** `beforeNetwork` less the charge: what the solver offers. May be zero or less; quotes refuse those. */
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
  const beforeNetwork = applyFees(convertAmount(request.fromAmount, from, to), strategy, feeBps);
  if (beforeNetwork <= 0n) {
    return refuse(
      "nothing_after_fees",
      `${request.fromAmount} smallest units of ${from.id} leave nothing of ${to.id} after fees`,
    );
  }
  const charge = await deps.networkFees.chargeFor({
    sourceChain: fromAsset.chain,
    destinationChain: toAsset.chain,
    destination: to,
  });
  if (isRefusal(charge)) return charge;
  const toAmount = beforeNetwork - charge.total;
  return { strategy, from, to, fromAmount: request.fromAmount, beforeNetwork, charge, toAmount, feeBps };
}

/** The refusal of an amount that does not cover its network charge, with the figures. */
export function networkFeeRefusal(priced: PricedRequest, what: string): QuoteRefusal {
  const { charge, to } = priced;
  return refuse(
    "network_fees",
    `${what}: ${describeAmount(priced.beforeNetwork, to)} after the strategy's fees, network fees ` +
      `${describeAmount(charge.networkFee, to)} (${charge.networkFeeUsd} USD: ${charge.detail}) and ` +
      `minimum profit ${describeAmount(charge.minProfit, to)}`,
  );
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
  if (priced.toAmount <= 0n) return networkFeeRefusal(priced, "nothing is left");
  const capacityRefusal = await checkCapacityFor(deps, priced.to, priced.toAmount);
  if (capacityRefusal !== undefined) return capacityRefusal;
  const item = buildQuoteItem({ solverId: deps.solverId, ...priced });
  return { ok: true, item, priced };
}
