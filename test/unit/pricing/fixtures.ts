/** Shared pricing fixtures: three assets with 6, 18 and 8 decimals and prices that do not divide evenly. */
import type {
  AssetConfig,
  InventoryCurve,
  Limits,
  PricesConfig,
  PricingStrategy,
} from "../../../src/config/types.js";
import { EXCHANGE_DEFAULTS } from "../../../src/config/sections/prices.js";
import { feeCoinsOf } from "../../../src/chains/coins.js";
import type { AssetIndex } from "../../../src/pricing/assets.js";
import { Inventory, type BalanceSource } from "../../../src/pricing/inventory.js";
import { FixedPriceSource, type PriceSource } from "../../../src/pricing/price-source.js";
import type { QuoteDeps } from "../../../src/pricing/quote.js";
import { chainsOf } from "../../support/coin-chains.js";
import { freeFacts, NO_MIN_PROFIT } from "../../support/network-fees.js";
import type { NetworkFeeFacts, NetworkFeeSettings } from "../../../src/pricing/network-fees/facts.js";
import { NetworkFees } from "../../../src/pricing/network-fees/view.js";

function asset(id: string, decimals: number): AssetConfig {
  const [chain = "", symbol = ""] = id.split(":");
  return { id, chain, symbol, decimals, tokenAddress: "native", htlcAddress: "" };
}

export const USDC = asset("ethereum:USDC", 6);
export const ETH = asset("ethereum:ETH", 18);
export const BTC = asset("bitcoin:BTC", 8);

export const PRICES: Record<string, string> = {
  [USDC.id]: "1",
  [ETH.id]: "3000.5",
  [BTC.id]: "65000.25",
};

export const SOLVER_ID = "ab".repeat(20);

/** A prices section with no live source: every asset priced by the fixed table. */
export const NO_LIVE_PRICES: PricesConfig = { refreshMs: 1_000, exchanges: EXCHANGE_DEFAULTS, assets: {} };

export function strategy(from: AssetConfig, to: AssetConfig, overrides: Partial<PricingStrategy> = {}) {
  return {
    from: from.id,
    to: to.id,
    minAmount: 1n,
    maxAmount: 10n ** 30n,
    feeBps: 0,
    fixedFee: 0n,
    spreadBps: 0,
    priceSource: "fixed",
    estimatedTimeSeconds: 600,
    enabled: true,
    ...overrides,
  } satisfies PricingStrategy;
}

/** Balances held in memory, counting reads so caching can be observed. */
export class MemoryBalances implements BalanceSource {
  reads = 0;
  failNext: Error | undefined;
  constructor(readonly amounts: Map<string, bigint>) {}

  async balance(assetId: string): Promise<bigint> {
    this.reads += 1;
    if (this.failNext !== undefined) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    return this.amounts.get(assetId) ?? 0n;
  }
}

export interface Harness {
  deps: QuoteDeps;
  balances: MemoryBalances;
  committed: Map<string, bigint>;
  inventory: Inventory;
}

export function harness(options: {
  strategies: PricingStrategy[];
  limits?: Partial<Limits>;
  balances?: Record<string, bigint>;
  prices?: Record<string, string>;
  /** Live prices, for strategies with priceSource "live"; the fixed table otherwise. */
  live?: PriceSource;
  curves?: Record<string, InventoryCurve>;
  /** Network fee facts and settings; free chains and no minimum profit unless given. */
  networkFees?: { facts?: NetworkFeeFacts; settings?: NetworkFeeSettings; now?: () => number };
}): Harness {
  const assets: AssetIndex = new Map([USDC, ETH, BTC].map((entry) => [entry.id, entry]));
  const limits: Limits = {
    maxOrderAmount: {},
    inventoryFloor: {},
    maxInFlightUsdCents: 10n ** 12n,
    ...options.limits,
  };
  const balances = new MemoryBalances(
    new Map(
      Object.entries(
        options.balances ?? { [USDC.id]: 10n ** 15n, [ETH.id]: 10n ** 24n, [BTC.id]: 10n ** 12n },
      ),
    ),
  );
  const committed = new Map<string, bigint>();
  const fixed = new FixedPriceSource(options.prices ?? PRICES);
  const live = options.live ?? fixed;
  const inventory = new Inventory({
    balances,
    committed: (id) => committed.get(id) ?? 0n,
    floors: limits.inventoryFloor,
    prices: live,
    assets,
    cacheMs: 0,
  });
  const feeCoins = feeCoinsOf(chainsOf(USDC, ETH, BTC));
  const now = options.networkFees?.now ?? (() => 0);
  const facts = options.networkFees?.facts ?? freeFacts(["ethereum", "bitcoin"], 0);
  const deps: QuoteDeps = {
    solverId: SOLVER_ID,
    strategies: options.strategies,
    assets,
    feeCoins,
    prices: { fixed, live, byAsset: live },
    limits,
    curves: options.curves ?? {},
    capacity: inventory,
    networkFees: new NetworkFees({
      settings: options.networkFees?.settings ?? NO_MIN_PROFIT,
      facts: () => facts,
      feeCoins,
      assets,
      prices: live,
      now,
    }),
  };
  return { deps, balances, committed, inventory };
}
