/**
 * The live price source. Every configured source is read in the background, every `refreshMs`, and its
 * last answer kept in memory; a quote only combines what is in memory, so it never waits on a network
 * read however many arrive at once. Sources shared by several assets (one BTCUSDT ticker for every
 * wrapped BTC) are read once per round.
 */
import type { Logger } from "pino";
import type { Address } from "viem";
import type { PriceSourceSpec, PricesConfig } from "../../config/types.js";
import { ratioToDecimal, type DecimalString } from "../decimal.js";
import type { LivePriceSource } from "../price-source.js";
import type { Aggregated, SourceReading } from "./aggregate.js";
import { binanceTicker } from "./binance.js";
import { chainlinkFeed, type FeedReader } from "./chainlink-feed.js";
import { coinbaseSpot } from "./coinbase.js";
import { krakenTicker } from "./kraken.js";
import { LivePrices, type ReadingsByAsset } from "./live-prices.js";
import { PriceFetchError, type PriceFetcher, type PriceObservation } from "./observation.js";

export interface PriceBookOptions {
  prices: PricesConfig;
  fixedPrices: Readonly<Record<string, DecimalString>>;
  /** Reads feeds on a configured EVM chain, through the solver's own RPC. */
  feedReader(chain: string): FeedReader;
  logger?: Logger;
  now?: () => number;
}

/** What one source last said, for people (the demo, logs). */
export interface SourceView {
  label: string;
  price: DecimalString | null;
  ageMs: number | null;
  error: string | null;
}

export interface AssetPriceView {
  assetId: string;
  /** The price quotes use now, or null with the reason. */
  price: DecimalString | null;
  refusal: string | null;
  sources: SourceView[];
}

interface SourceState {
  fetcher: PriceFetcher;
  observation: PriceObservation | null;
  error: string | null;
}

interface AssetSource {
  key: string;
  maxAgeMs: number;
}

/** A fixed-table entry as a source: read from memory, never old. */
function fixedFetcher(
  assetId: string,
  table: Readonly<Record<string, DecimalString>>,
  now: () => number,
): PriceFetcher {
  const label = `fixed ${assetId}`;
  return {
    key: `fixed:${assetId}`,
    label,
    fetch: async () => {
      const price = table[assetId];
      if (price === undefined) throw new PriceFetchError(label, "missing from fixedPrices");
      return { price, atMs: now() };
    },
  };
}

export class PriceBook implements LivePriceSource {
  private readonly sources = new Map<string, SourceState>();
  private readonly assets = new Map<string, AssetSource[]>();
  private readonly lastGood = new Map<string, { price: DecimalString; atMs: number }>();
  private readonly now: () => number;
  private readonly live: LivePrices;
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: PriceBookOptions) {
    this.now = options.now ?? Date.now;
    for (const [assetId, config] of Object.entries(options.prices.assets)) {
      this.assets.set(
        assetId,
        config.sources.map((spec) => this.addSource(assetId, spec)),
      );
    }
    this.live = new LivePrices(options.prices.assets, (assetId) => this.readings(assetId), this.now);
  }

  private fetcherFor(assetId: string, spec: PriceSourceSpec): PriceFetcher {
    const { exchanges } = this.options.prices;
    switch (spec.kind) {
      case "chainlink":
        return chainlinkFeed(this.options.feedReader(spec.chain), spec.chain, spec.feed as Address);
      case "binance":
        return binanceTicker(exchanges.binance, spec.symbol, this.now);
      case "coinbase":
        return coinbaseSpot(exchanges.coinbase, spec.symbol, this.now);
      case "kraken":
        return krakenTicker(exchanges.kraken, spec.symbol, this.now);
      case "fixed":
        return fixedFetcher(assetId, this.options.fixedPrices, this.now);
    }
  }

  private addSource(assetId: string, spec: PriceSourceSpec): AssetSource {
    const fetcher = this.fetcherFor(assetId, spec);
    if (!this.sources.has(fetcher.key))
      this.sources.set(fetcher.key, { fetcher, observation: null, error: null });
    return { key: fetcher.key, maxAgeMs: spec.kind === "fixed" ? Number.POSITIVE_INFINITY : spec.maxAgeMs };
  }

  /** Reads every source once, then keeps reading every `refreshMs` until stopped. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.refresh().finally(() => this.schedule());
    }, this.options.prices.refreshMs);
    // Background work must not keep a finished process alive.
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.refreshing;
  }

  /** One round of reads of every source; a round still running is joined, never doubled. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readAll().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readAll(): Promise<void> {
    await Promise.all([...this.sources.values()].map((state) => this.readOne(state)));
    // Remembered after every round, so what already happened can be valued even if the sources lapse later.
    for (const assetId of this.assets.keys()) this.remember(assetId, this.price(assetId));
  }

  private remember(assetId: string, answer: Aggregated): void {
    if (answer.ok) this.lastGood.set(assetId, { price: ratioToDecimal(answer.price), atMs: this.now() });
  }

  private async readOne(state: SourceState): Promise<void> {
    const log = this.options.logger;
    try {
      state.observation = await state.fetcher.fetch();
      if (state.error !== null) log?.info({ source: state.fetcher.label }, "price source answers again");
      state.error = null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (state.error !== message)
        log?.warn({ source: state.fetcher.label, err: message }, "price source failed");
      // The last good answer stays: it counts until it is older than the source's maxAgeMs.
      state.error = message;
    }
  }

  has(assetId: string): boolean {
    return this.live.has(assetId);
  }

  private readings(assetId: string): SourceReading[] {
    return (this.assets.get(assetId) ?? []).map(({ key, maxAgeMs }) => {
      const state = this.sources.get(key) as SourceState;
      return { label: state.fetcher.label, maxAgeMs, observation: state.observation, error: state.error };
    });
  }

  /** What every live-priced asset's sources last said: all a copy of the book needs to price as it does. */
  readingsByAsset(): ReadingsByAsset {
    return Object.fromEntries([...this.assets.keys()].map((assetId) => [assetId, this.readings(assetId)]));
  }

  /** The asset's price now, from memory: its sources' median, through its base when it is pegged. */
  price(assetId: string): Aggregated {
    return this.live.price(assetId);
  }

  usdPrice(assetId: string): Promise<DecimalString> {
    return this.live.usdPrice(assetId);
  }

  /** The last price quotes could use (as of the last round of reads), and when; for valuing what already happened. */
  lastKnown(assetId: string): { price: DecimalString; atMs: number } | null {
    return this.lastGood.get(assetId) ?? null;
  }

  describe(): AssetPriceView[] {
    const nowMs = this.now();
    return [...this.assets.keys()].map((assetId) => {
      const answer = this.price(assetId);
      return {
        assetId,
        price: answer.ok ? ratioToDecimal(answer.price) : null,
        refusal: answer.ok ? null : `${answer.reason}: ${answer.detail}`,
        sources: this.readings(assetId).map((reading) => ({
          label: reading.label,
          price: reading.observation?.price ?? null,
          ageMs: reading.observation === null ? null : Math.max(0, nowMs - reading.observation.atMs),
          error: reading.error,
        })),
      };
    });
  }
}
