/**
 * The pricing settings a quote reads, as plain data: what the main thread prices with, and what it sends
 * the quote thread (quote-thread/) so that both build their quote dependencies from the same facts.
 */
import type {
  AssetConfig,
  AssetPriceConfig,
  InventoryCurve,
  Limits,
  PricingStrategy,
} from "../config/types.js";
import { indexAssets, type FeeCoins } from "./assets.js";
import type { DecimalString } from "./decimal.js";
import type { CapacityView } from "./inventory.js";
import type { NetworkFeeFacts, NetworkFeeSettings } from "./network-fees/facts.js";
import { NetworkFees } from "./network-fees/view.js";
import type { PriceSources } from "./price-source.js";
import type { QuoteDeps } from "./quote.js";

export interface QuoteSettings {
  /** Hex id the service knows this solver by. */
  solverId: string;
  strategies: readonly PricingStrategy[];
  /** Every configured asset, of every chain. */
  assets: readonly AssetConfig[];
  /** Each chain's fee coin. */
  feeCoins: FeeCoins;
  fixedPrices: Readonly<Record<string, DecimalString>>;
  /** `prices.assets`: each live-priced asset's sources, their rule and its peg. */
  livePrices: Readonly<Record<string, AssetPriceConfig>>;
  limits: Limits;
  /** Inventory curves per destination asset id. */
  curves: Readonly<Record<string, InventoryCurve>>;
  /** Minimum profit, refund probability and the age bounds of network fee estimates. */
  networkFees: NetworkFeeSettings;
}

/** Where a quote's network fee facts come from, and its clock. */
export interface NetworkFeeSource {
  facts: () => NetworkFeeFacts;
  now: () => number;
}

/** A quote's dependencies out of the settings, the prices and the capacity they are read against. */
export function quoteDepsOf(
  settings: QuoteSettings,
  prices: PriceSources,
  capacity: CapacityView,
  fees: NetworkFeeSource,
): QuoteDeps {
  const assets = indexAssets([{ assets: settings.assets }]);
  return {
    solverId: settings.solverId,
    strategies: settings.strategies,
    assets,
    feeCoins: settings.feeCoins,
    prices,
    limits: settings.limits,
    curves: settings.curves,
    capacity,
    networkFees: new NetworkFees({
      settings: settings.networkFees,
      facts: fees.facts,
      feeCoins: settings.feeCoins,
      assets,
      prices: prices.byAsset,
      now: fees.now,
    }),
  };
}
