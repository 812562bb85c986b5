import type { Logger } from "pino";
import type { SafetyConfig } from "../config/types.js";
import type { Journal } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { CapacityLedger } from "../pricing/capacity-ledger.js";
import type { OrderAmounts } from "../pricing/order-check.js";
import type { PriceSource } from "../pricing/price-source.js";
import type { RunnerObserver } from "./observer.js";
import type { QuoteCheck } from "./plan-types.js";
import type { ChainRegistry } from "./solver-chain.js";

export interface RunnerOptions {
  journal: Journal;
  orderbook: Pick<OrderbookClient, "listAllOrders" | "listOrders" | "getOrder" | "instantRefund">;
  chains: ChainRegistry;
  /** The solver's prices of now: an urgent token redeem's fee allowance is converted to the fee coin at them. */
  prices: PriceSource;
  /**
   * Pricing's verdict on a fill of these amounts now (price, limits, inventory): the terms the fill
   * carries, frozen once the solver committed, never the service's present word.
   */
  checkQuote: (amounts: OrderAmounts) => Promise<QuoteCheck>;
  /** Fresh capacity for the destination assets of fills about to be claimed. */
  openLedger: (assetIds: readonly string[]) => Promise<CapacityLedger>;
  safety: SafetyConfig;
  pollIntervalMs: number;
  logger: Logger;
  observer?: RunnerObserver;
  /** Journals a settled order's profit and loss (src/pnl/recorder.ts); never throws. */
  settlement?: { recordSettlement(orderId: string): Promise<void> };
  /** Orders processed at once, per queue of the inbox (src/solver/order-inbox.ts). */
  concurrency?: number;
  /**
   * How often each chain's tip is read while a block is due; with it, an order whose HTLC changes in a
   * new block is processed at once rather than at the next round (src/solver/chain-watch.ts).
   */
  watchIntervalMs?: number;
  now?: () => number;
}
