/**
 * Wires pricing from the typed config: fixed prices, strategies, limits and an inventory over the
 * executors' balances and the journal's committed amounts. The runner builds one and hands out its parts.
 */
import type { SolverConfig } from "../config/types.js";
import { indexAssets, type ChainAssets } from "./assets.js";
import { Inventory, type BalanceSource, type CommittedAmount } from "./inventory.js";
import { checkOrderAgainstQuote, type OrderAmounts, type OrderCheckOk } from "./order-check.js";
import { FixedPriceSource, type PriceSource } from "./price-source.js";
import { quoteFor, type QuoteDeps } from "./quote.js";
import type { QuoteFunction } from "./quote-server.js";
import type { QuoteRefusal } from "./refusal.js";

export interface PricingIo {
  balances: BalanceSource;
  committed: CommittedAmount;
  inFlight?: CommittedAmount;
  /** How long a balance read is reused; 5 s unless given. */
  balanceCacheMs?: number;
  /** Overrides `config.fixedPrices` (for a live price feed). */
  prices?: PriceSource;
}

export interface Pricing {
  deps: QuoteDeps;
  inventory: Inventory;
  /** For startQuoteServer: the quote item, or the refusal. */
  quote: QuoteFunction;
  checkOrder(order: OrderAmounts, toleranceBps: number): Promise<OrderCheckOk | QuoteRefusal>;
}

/** The parts of SolverConfig pricing reads; a SolverConfig is one. */
export interface PricingConfig extends Pick<SolverConfig, "fixedPrices" | "strategies" | "limits"> {
  solver: Pick<SolverConfig["solver"], "id">;
  chains: readonly ChainAssets[];
}

export const DEFAULT_BALANCE_CACHE_MS = 5_000;

export function createPricing(config: PricingConfig, io: PricingIo): Pricing {
  const assets = indexAssets(config.chains);
  const prices = io.prices ?? new FixedPriceSource(config.fixedPrices);
  const inventory = new Inventory({
    balances: io.balances,
    committed: io.committed,
    ...(io.inFlight ? { inFlight: io.inFlight } : {}),
    floors: config.limits.inventoryFloor,
    prices,
    assets,
    cacheMs: io.balanceCacheMs ?? DEFAULT_BALANCE_CACHE_MS,
  });
  const deps: QuoteDeps = {
    solverId: config.solver.id,
    strategies: config.strategies,
    assets,
    prices,
    limits: config.limits,
    capacity: inventory,
  };
  return {
    deps,
    inventory,
    quote: async (request) => {
      const answer = await quoteFor(request, deps);
      return answer.ok ? answer.item : answer;
    },
    checkOrder: (order, toleranceBps) => checkOrderAgainstQuote(order, deps, toleranceBps),
  };
}
