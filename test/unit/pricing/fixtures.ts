/** Shared pricing fixtures: three assets with 6, 18 and 8 decimals and prices that do not divide evenly. */
import type { AssetConfig, Limits, PricingStrategy } from "../../../src/config/types.js";
import type { AssetIndex } from "../../../src/pricing/assets.js";
import { Inventory, type BalanceSource } from "../../../src/pricing/inventory.js";
import { FixedPriceSource } from "../../../src/pricing/price-source.js";
import type { QuoteDeps } from "../../../src/pricing/quote.js";

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
  const prices = new FixedPriceSource(options.prices ?? PRICES);
  const inventory = new Inventory({
    balances,
    committed: (id) => committed.get(id) ?? 0n,
    floors: limits.inventoryFloor,
    prices,
    assets,
    cacheMs: 0,
  });
  const deps: QuoteDeps = {
    solverId: SOLVER_ID,
    strategies: options.strategies,
    assets,
    prices,
    limits,
    capacity: inventory,
  };
  return { deps, balances, committed, inventory };
}
