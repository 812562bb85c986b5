import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AssetPriceConfig, PricesConfig } from "../../../../src/config/types.js";
import { EXCHANGE_DEFAULTS } from "../../../../src/config/sections/prices.js";
import { startTickerServer, type TickerServer } from "@htlc-solver/localnet/ticker-server.js";
import type { FeedReader, RoundData } from "../../../../src/pricing/live/chainlink-feed.js";
import { PriceBook } from "../../../../src/pricing/live/price-book.js";
import { createPricing, type Pricing } from "../../../../src/pricing/pricing.js";
import { refusalOutcome } from "../../../../src/pricing/refusal.js";
import { BTC, ETH, MemoryBalances, SOLVER_ID, USDC, strategy } from "../fixtures.js";
import { chainsOf } from "../../../support/coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../../../support/network-fees.js";

const WBTC = { ...BTC, id: "ethereum:WBTC", chain: "ethereum", symbol: "WBTC" };
const BTC_FEED = "0x00000000000000000000000000000000000000b1" as Address;
const WBTC_FEED = "0x00000000000000000000000000000000000000b2" as Address;
const ETH_FEED = "0x00000000000000000000000000000000000000e1" as Address;

/** Feeds whose rounds a test sets; `hang` makes every read wait until released. */
class FakeFeeds implements FeedReader {
  readonly rounds = new Map<string, RoundData>();
  reads = 0;
  private held: (() => void)[] = [];
  hang = false;

  set(feed: Address, price: bigint, updatedAtMs = Date.now()): void {
    const previous = this.rounds.get(feed)?.roundId ?? 0n;
    const updatedAt = BigInt(Math.floor(updatedAtMs / 1000));
    const roundId = previous + 1n;
    this.rounds.set(feed, {
      roundId,
      answer: price * 10n ** 8n,
      startedAt: updatedAt,
      updatedAt,
      answeredInRound: roundId,
    });
  }

  async decimals(): Promise<number> {
    return 8;
  }

  async latestRoundData(feed: Address): Promise<RoundData> {
    this.reads += 1;
    if (this.hang) await new Promise<void>((resolve) => this.held.push(resolve));
    const round = this.rounds.get(feed);
    if (round === undefined) throw new Error(`no feed at ${feed}`);
    return round;
  }

  release(): void {
    this.hang = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}

let tickers: TickerServer;
const feeds = new FakeFeeds();
const started: (PriceBook | Pricing)[] = [];

beforeAll(async () => {
  tickers = await startTickerServer({ BTC: "60000", ETH: "3000" });
});
afterEach(async () => {
  feeds.release();
  for (const part of started.splice(0)) await part.stop();
  tickers.set("BTC", "60000");
  tickers.set("ETH", "3000");
});
afterAll(async () => {
  await tickers.stop();
});

function pricesConfig(assets: Record<string, AssetPriceConfig>, refreshMs = 60_000): PricesConfig {
  const exchanges = {
    binance: { ...EXCHANGE_DEFAULTS.binance, baseUrl: tickers.url },
    coinbase: { ...EXCHANGE_DEFAULTS.coinbase, baseUrl: tickers.url },
    kraken: { ...EXCHANGE_DEFAULTS.kraken, baseUrl: tickers.url },
  };
  return { refreshMs, exchanges, assets };
}

const btcSources: AssetPriceConfig = {
  sources: [
    { kind: "chainlink", chain: "ethereum", feed: BTC_FEED, maxAgeMs: 3_600_000 },
    { kind: "binance", symbol: "BTCUSDT", maxAgeMs: 60_000 },
    { kind: "coinbase", symbol: "BTC-USD", maxAgeMs: 60_000 },
    { kind: "kraken", symbol: "XBTUSD", maxAgeMs: 60_000 },
  ],
  minSources: 3,
  maxDeviationBps: 100,
  peg: null,
};
const ethFeedOnly: AssetPriceConfig = {
  sources: [{ kind: "chainlink", chain: "ethereum", feed: ETH_FEED, maxAgeMs: 3_600_000 }],
  minSources: 1,
  maxDeviationBps: 0,
  peg: null,
};
/** A USD stablecoin priced by the fixed table, through the live sources' configuration. */
const usdcFixed: AssetPriceConfig = {
  sources: [{ kind: "fixed" }],
  minSources: 1,
  maxDeviationBps: 0,
  peg: null,
};
const wbtcPegged: AssetPriceConfig = {
  sources: [{ kind: "chainlink", chain: "ethereum", feed: WBTC_FEED, maxAgeMs: 3_600_000 }],
  minSources: 1,
  maxDeviationBps: 0,
  peg: { base: BTC.id, maxDeviationBps: 200, quotedIn: "usd" },
};

async function livePricing(assets: Record<string, AssetPriceConfig>, refreshMs?: number): Promise<Pricing> {
  const pricing = createPricing(
    {
      solver: { id: SOLVER_ID },
      chains: chainsOf(USDC, ETH, WBTC, BTC),
      fixedPrices: { [USDC.id]: "1" },
      prices: pricesConfig({ [USDC.id]: usdcFixed, ...assets }, refreshMs),
      strategies: [
        strategy(BTC, USDC, { priceSource: "live" }),
        strategy(ETH, USDC, { priceSource: "live" }),
        strategy(BTC, WBTC, { priceSource: "live" }),
      ],
      limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
      inventoryCurves: {},
      networkFees: NO_MIN_PROFIT,
    },
    {
      balances: new MemoryBalances(
        new Map([
          [USDC.id, 10n ** 15n],
          [WBTC.id, 10n ** 12n],
        ]),
      ),
      committed: () => 0n,
      ...freeNetworkIo(chainsOf(USDC, ETH, WBTC, BTC)),
      feedReader: () => feeds,
    },
  );
  await pricing.start();
  started.push(pricing);
  return pricing;
}

const ONE_BTC = { from: BTC.id, to: USDC.id, fromAmount: 100_000_000n };
const ONE_ETH = { from: ETH.id, to: USDC.id, fromAmount: 10n ** 18n };

describe("live prices: the median of an on-chain feed and three exchange tickers", () => {
  it("quotes at the median of the fresh sources", async () => {
    feeds.set(BTC_FEED, 60_100n);
    tickers.set("BTC", "59950", "kraken");
    const pricing = await livePricing({ [BTC.id]: btcSources });
    // Sorted: 59950, 60000, 60000, 60100 → (60000 + 60000) / 2.
    expect(await pricing.quote(ONE_BTC)).toMatchObject({ destination: { amount: "60000000000" } });
    expect(pricing.describePrices()[1]).toMatchObject({
      assetId: BTC.id,
      price: "60000",
      refusal: null,
      sources: [
        { label: `chainlink ethereum ${BTC_FEED}`, price: "60100", error: null },
        { label: "binance BTCUSDT", price: "60000" },
        { label: "coinbase BTC-USD", price: "60000" },
        { label: "kraken XBTUSD", price: "59950" },
      ],
    });
  });

  it("a stale feed stops quotes for its asset, and only for its asset", async () => {
    feeds.set(BTC_FEED, 60_000n);
    feeds.set(ETH_FEED, 3_000n, Date.now() - 3_700_000);
    const pricing = await livePricing({ [BTC.id]: btcSources, [ETH.id]: ethFeedOnly });
    const refused = await pricing.quote(ONE_ETH);
    expect(refused).toMatchObject({ ok: false, reason: "price_stale" });
    expect(!("destination" in refused) && refused.message).toMatch(
      new RegExp(
        `ethereum:ETH: 0 of 1 sources fresh, 1 needed \\(chainlink ethereum ${ETH_FEED}: 370\\d(\\.\\d)? s old, max 3600 s\\)`,
      ),
    );
    expect(refusalOutcome("price_stale")).toBe("wait");
    expect(await pricing.quote(ONE_BTC)).toMatchObject({ destination: { amount: "60000000000" } });
  });

  it("sources that disagree stop quotes", async () => {
    feeds.set(BTC_FEED, 60_000n);
    tickers.set("BTC", "61000", "binance");
    tickers.set("BTC", "61000", "coinbase");
    const pricing = await livePricing({ [BTC.id]: btcSources });
    const refused = await pricing.quote(ONE_BTC);
    expect(refused).toMatchObject({ ok: false, reason: "price_sources_disagree" });
    expect(!("destination" in refused) && refused.message).toContain("sources disagree by 165 bps, max 100");
    expect(refusalOutcome("price_sources_disagree")).toBe("wait");
  });

  it("quotes on while one of four sources fails, as long as minSources are fresh", async () => {
    feeds.set(BTC_FEED, 60_000n);
    tickers.fail("kraken", "BTC", true);
    try {
      const pricing = await livePricing({ [BTC.id]: btcSources });
      expect(await pricing.quote(ONE_BTC)).toMatchObject({ destination: { amount: "60000000000" } });
      expect(pricing.describePrices()[1]?.sources[3]).toMatchObject({
        price: null,
        error: expect.stringMatching(/HTTP 503/),
      });
    } finally {
      tickers.fail("kraken", "BTC", false);
    }
  });

  it("prices a wrapped asset as its base behind the de-peg guard", async () => {
    feeds.set(BTC_FEED, 60_000n);
    feeds.set(WBTC_FEED, 59_500n);
    const pricing = await livePricing({ [BTC.id]: btcSources, [WBTC.id]: wbtcPegged });
    expect(await pricing.quote({ from: BTC.id, to: WBTC.id, fromAmount: 100_000_000n })).toMatchObject({
      destination: { amount: "100000000", value: "60000.00" },
    });
    feeds.set(WBTC_FEED, 58_000n);
    const book = new PriceBook({
      prices: pricesConfig({ [BTC.id]: btcSources, [WBTC.id]: wbtcPegged }),
      fixedPrices: {},
      feedReader: () => feeds,
    });
    await book.refresh();
    await expect(book.usdPrice(WBTC.id)).rejects.toMatchObject({ reason: "price_depegged" });
  });
});

describe("valuing what already happened", () => {
  it("uses the price of now, and the last usable one once the sources lapse", async () => {
    feeds.set(ETH_FEED, 3_000n);
    let now = Date.now();
    const book = new PriceBook({
      prices: pricesConfig({ [ETH.id]: ethFeedOnly }),
      fixedPrices: {},
      feedReader: () => feeds,
      now: () => now,
    });
    await book.refresh();
    const pricedAt = now;
    expect(book.lastKnown(ETH.id)).toEqual({ price: "3000", atMs: pricedAt });
    now += 3_700_000;
    await book.refresh();
    await expect(book.usdPrice(ETH.id)).rejects.toMatchObject({ reason: "price_stale" });
    expect(book.lastKnown(ETH.id)).toEqual({ price: "3000", atMs: pricedAt });
  });
});

describe("the price book", () => {
  it("refreshes in the background: a new ticker price reaches the next quote without a read on the way", async () => {
    const book = new PriceBook({
      prices: pricesConfig(
        {
          [ETH.id]: {
            ...btcSources,
            sources: [{ kind: "coinbase", symbol: "ETH-USD", maxAgeMs: 60_000 }],
            minSources: 1,
          },
        },
        50,
      ),
      fixedPrices: {},
      feedReader: () => feeds,
    });
    started.push(book);
    await book.start();
    await expect(book.usdPrice(ETH.id)).resolves.toBe("3000");
    tickers.set("ETH", "3100.25");
    const before = tickers.requests.coinbase;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tickers.requests.coinbase).toBeGreaterThan(before);
    await expect(book.usdPrice(ETH.id)).resolves.toBe("3100.25");
  });

  it("answers from memory while a read hangs: a quote never waits on the network", async () => {
    feeds.set(ETH_FEED, 3_000n);
    const book = new PriceBook({
      prices: pricesConfig({ [ETH.id]: ethFeedOnly }),
      fixedPrices: {},
      feedReader: () => feeds,
    });
    await book.refresh();
    feeds.hang = true;
    const hanging = book.refresh();
    const started = performance.now();
    await expect(book.usdPrice(ETH.id)).resolves.toBe("3000");
    expect(performance.now() - started).toBeLessThan(20);
    feeds.release();
    await hanging;
  });

  it("reads a market shared by several assets once per round", async () => {
    const shared: AssetPriceConfig = {
      ...btcSources,
      sources: [{ kind: "binance", symbol: "BTCUSDT", maxAgeMs: 60_000 }],
      minSources: 1,
    };
    const book = new PriceBook({
      prices: pricesConfig({ [BTC.id]: shared, [WBTC.id]: shared }),
      fixedPrices: {},
      feedReader: () => feeds,
    });
    const before = tickers.requests.binance;
    await book.refresh();
    expect(tickers.requests.binance - before).toBe(1);
  });
});
