/**
 * Wires pricing from the typed config: fixed and live prices, strategies, curves, limits and an inventory
 * over the executors' balances and the journal's committed amounts. The runner builds one and hands out
 * its parts; a configuration reload replaces the pricing parts at once, between two quotes.
 */
import type { Logger } from "pino";
import type { SolverConfig } from "../config/types.js";
import { declaredCoinsOf, feeCoinsOf, type CoinChain } from "../chains/coins.js";
import { indexAssets } from "./assets.js";
import type { DecimalString } from "./decimal.js";
import { Inventory, type BalanceSource, type CommittedAmount } from "./inventory.js";
import type { FeedReader } from "./live/chainlink-feed.js";
import { PriceBook, type AssetPriceView } from "./live/price-book.js";
import {
  checkOrderAgainstQuote,
  checkOrderPrice,
  type OrderAmounts,
  type OrderCheckOk,
} from "./order-check.js";
import { NetworkFeeBook, type FeeBookOptions, type FeeEstimator } from "./network-fees/fee-book.js";
import { PriceUnavailableError, priceSourcesOf, type PriceSources } from "./price-source.js";
import { quoteFor, type QuoteDeps } from "./quote.js";
import type { QuoteFunction } from "./quote-server.js";
import { quoteDepsOf, type QuoteSettings } from "./quote-settings.js";
import { takeQuoteSnapshot, type QuoteSnapshot } from "./quote-thread/snapshot.js";
import type { QuoteRefusal } from "./refusal.js";

export interface PricingIo {
  balances: BalanceSource;
  /** Each chain's network fee estimate, read in the background. */
  feeEstimators: readonly FeeEstimator[];
  /** Batch sizes achieved since a moment, from the journal (`recentBatchSizes`). */
  batchSizes: FeeBookOptions["batchSizes"];
  committed: CommittedAmount;
  inFlight?: CommittedAmount;
  /** How long a balance read is reused; 5 s unless given. */
  balanceCacheMs?: number;
  /** Reads price feeds on a configured EVM chain; needed when a `chainlink` source is configured. */
  feedReader?: (chain: string) => FeedReader;
  logger?: Logger;
  now?: () => number;
}

/** The parts of SolverConfig pricing reads; a SolverConfig is one. */
export interface PricingConfig extends Pick<
  SolverConfig,
  "fixedPrices" | "prices" | "strategies" | "limits" | "inventoryCurves" | "networkFees"
> {
  solver: Pick<SolverConfig["solver"], "id">;
  chains: readonly CoinChain[];
}

export interface Valuation {
  price: DecimalString;
  /** When this price was usable for quotes. */
  atMs: number;
}

export interface Pricing {
  /** Quote dependencies as configured now. */
  readonly deps: QuoteDeps;
  readonly inventory: Inventory;
  /** For startQuoteServer: the quote item, or the refusal. */
  quote: QuoteFunction;
  /** The check before a fill: price at the inventory of now, then capacity. */
  checkOrder(order: OrderAmounts, toleranceBps: number): Promise<OrderCheckOk | QuoteRefusal>;
  /** The price alone, the inventory curve read at `holding` (the fill gate's figure for this fill). */
  checkOrderPrice(
    order: OrderAmounts,
    toleranceBps: number,
    holding: bigint,
  ): Promise<OrderCheckOk | QuoteRefusal>;
  /** Reads every live source once, then keeps them fresh in the background. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Puts a new, already validated configuration's pricing parts in force. */
  reload(config: PricingConfig): Promise<void>;
  /** Each live-priced asset's price and what its sources last said. */
  describePrices(): AssetPriceView[];
  /** An asset's USD price for valuing what already happened: now, or else the last usable one. */
  valuation(assetId: string): Promise<Valuation | null>;
  /**
   * Everything a quote reads, as of now, for the quote thread: the settings in force, what the live
   * sources last said, and the balances (a read taking longer than `balanceWaitMs` counts as failed for
   * this snapshot) with the journal's committed and in-flight amounts.
   */
  quoteSnapshot(balanceWaitMs: number): Promise<QuoteSnapshot>;
}

export const DEFAULT_BALANCE_CACHE_MS = 5_000;

export class FeedReaderMissingError extends Error {
  constructor(chain: string) {
    super(`a chainlink price source reads chain ${chain}, but pricing was built without a feed reader`);
    this.name = "FeedReaderMissingError";
  }
}

function quoteSettingsOf(config: PricingConfig): QuoteSettings {
  return {
    solverId: config.solver.id,
    strategies: config.strategies,
    // Declared coins only price fees: no strategy can name them (the config's checks).
    assets: [...config.chains.flatMap((chain) => chain.assets), ...declaredCoinsOf(config.chains)],
    feeCoins: feeCoinsOf(config.chains),
    fixedPrices: config.fixedPrices,
    livePrices: config.prices.assets,
    limits: config.limits,
    curves: config.inventoryCurves,
    networkFees: config.networkFees,
  };
}

/** The book's inputs; a reload builds a new book only when these changed. */
function bookKey(config: PricingConfig): string {
  return JSON.stringify({ prices: config.prices, fixed: config.fixedPrices });
}

class PricingEngine implements Pricing {
  readonly inventory: Inventory;
  private book: PriceBook;
  private sources: PriceSources;
  private currentDeps: QuoteDeps;
  private settings: QuoteSettings;
  private currentBookKey: string;
  private started = false;
  private readonly now: () => number;
  private readonly feeBook: NetworkFeeBook;

  constructor(
    config: PricingConfig,
    private readonly io: PricingIo,
  ) {
    this.now = io.now ?? Date.now;
    this.book = this.newBook(config);
    this.currentBookKey = bookKey(config);
    this.sources = priceSourcesOf(config.fixedPrices, this.book);
    this.inventory = new Inventory({
      balances: io.balances,
      committed: io.committed,
      ...(io.inFlight ? { inFlight: io.inFlight } : {}),
      floors: config.limits.inventoryFloor,
      prices: this.sources.byAsset,
      assets: indexAssets(config.chains),
      cacheMs: io.balanceCacheMs ?? DEFAULT_BALANCE_CACHE_MS,
      now: this.now,
    });
    this.feeBook = new NetworkFeeBook({
      estimators: io.feeEstimators,
      batchSizes: io.batchSizes,
      refreshMs: config.networkFees.refreshMs,
      batchWindowMs: config.networkFees.batchWindowMs,
      ...(io.logger ? { logger: io.logger } : {}),
      now: this.now,
    });
    this.settings = quoteSettingsOf(config);
    this.currentDeps = this.depsOf(this.settings);
  }

  private depsOf(settings: QuoteSettings): QuoteDeps {
    return quoteDepsOf(settings, this.sources, this.inventory, {
      facts: () => this.feeBook.facts(),
      now: this.now,
    });
  }

  get deps(): QuoteDeps {
    return this.currentDeps;
  }

  private newBook(config: PricingConfig): PriceBook {
    const feedReader = this.io.feedReader;
    return new PriceBook({
      prices: config.prices,
      fixedPrices: config.fixedPrices,
      feedReader: (chain) => {
        if (feedReader === undefined) throw new FeedReaderMissingError(chain);
        return feedReader(chain);
      },
      ...(this.io.logger ? { logger: this.io.logger } : {}),
      now: this.now,
    });
  }

  quote: QuoteFunction = async (request) => {
    const answer = await quoteFor(request, this.currentDeps);
    return answer.ok ? answer.item : answer;
  };

  checkOrder(order: OrderAmounts, toleranceBps: number): Promise<OrderCheckOk | QuoteRefusal> {
    return checkOrderAgainstQuote(order, this.currentDeps, toleranceBps);
  }

  checkOrderPrice(
    order: OrderAmounts,
    toleranceBps: number,
    holding: bigint,
  ): Promise<OrderCheckOk | QuoteRefusal> {
    return checkOrderPrice(order, this.currentDeps, toleranceBps, holding);
  }

  async start(): Promise<void> {
    this.started = true;
    await Promise.all([this.book.start(), this.feeBook.start()]);
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([this.book.stop(), this.feeBook.stop()]);
  }

  async reload(config: PricingConfig): Promise<void> {
    const key = bookKey(config);
    const previous = this.book;
    if (key !== this.currentBookKey) {
      const book = this.newBook(config);
      // The new sources answer once before they are used, so a reload never leaves quotes without prices.
      if (this.started) await book.start();
      this.book = book;
      this.currentBookKey = key;
    }
    this.sources = priceSourcesOf(config.fixedPrices, this.book);
    this.inventory.update({ floors: config.limits.inventoryFloor, prices: this.sources.byAsset });
    this.settings = quoteSettingsOf(config);
    this.feeBook.update(config.networkFees);
    this.currentDeps = this.depsOf(this.settings);
    if (previous !== this.book) await previous.stop();
  }

  describePrices(): AssetPriceView[] {
    return this.book.describe();
  }

  async valuation(assetId: string): Promise<Valuation | null> {
    try {
      return { price: await this.sources.byAsset.usdPrice(assetId), atMs: this.now() };
    } catch (error) {
      if (!(error instanceof PriceUnavailableError)) throw error;
      return this.book.lastKnown(assetId);
    }
  }

  quoteSnapshot(balanceWaitMs: number): Promise<QuoteSnapshot> {
    const committed = this.io.committed;
    return takeQuoteSnapshot({
      settings: this.settings,
      readings: this.book.readingsByAsset(),
      networkFees: this.feeBook.facts(),
      balances: this.inventory,
      committed,
      inFlight: this.io.inFlight ?? committed,
      balanceWaitMs,
      now: this.now,
    });
  }
}

export function createPricing(config: PricingConfig, io: PricingIo): Pricing {
  return new PricingEngine(config, io);
}
