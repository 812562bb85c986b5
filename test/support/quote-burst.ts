/**
 * A burst of concurrent quote requests over HTTP against a solver whose prices are live (three exchange
 * tickers on the local ticker server and an on-chain feed), to measure latency and to count the network
 * reads the burst caused. Shared by the unit test and `npm run bench`.
 */
import { pino } from "pino";
import type { Address } from "viem";
import { EXCHANGE_DEFAULTS } from "../../src/config/sections/prices.js";
import { startTickerServer } from "@htlc-solver/localnet/ticker-server.js";
import type { FeedReader } from "../../src/pricing/live/chainlink-feed.js";
import { createPricing } from "../../src/pricing/pricing.js";
import { startQuoteServer } from "../../src/pricing/quote-server.js";
import { chainsOf } from "./coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "./network-fees.js";

const BTC = {
  id: "bitcoin:btc",
  chain: "bitcoin",
  symbol: "btc",
  decimals: 8,
  tokenAddress: "primary",
  htlcAddress: "",
};
const USDC = {
  id: "ethereum:usdc",
  chain: "ethereum",
  symbol: "usdc",
  decimals: 6,
  tokenAddress: "0x0000000000000000000000000000000000000001",
  htlcAddress: "0x0000000000000000000000000000000000000002",
};

export interface BurstResult {
  /** Per request, ms, sorted. */
  latenciesMs: number[];
  totalMs: number;
  /** Destination amounts answered (one value when every quote agreed). */
  amounts: Set<string>;
  failures: number;
  /** Ticker requests and feed reads made while the burst ran. */
  readsDuringBurst: number;
  /** The same number of quotes called in process, all at once, without HTTP: the pricing's own share. */
  inProcessMs: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function quoteBurst(requests: number): Promise<BurstResult> {
  const tickers = await startTickerServer({ BTC: "60000" });
  let feedReads = 0;
  const feed: FeedReader = {
    decimals: async () => 8,
    latestRoundData: async () => {
      feedReads += 1;
      const now = BigInt(Math.floor(Date.now() / 1000));
      return { roundId: 7n, answer: 6_000_000_000_000n, startedAt: now, updatedAt: now, answeredInRound: 7n };
    },
  };
  const exchange = { ...EXCHANGE_DEFAULTS.binance, baseUrl: tickers.url };
  const pricing = createPricing(
    {
      solver: { id: "ab".repeat(20) },
      chains: chainsOf(BTC, USDC),
      fixedPrices: { [USDC.id]: "1" },
      prices: {
        // No background round during the burst: every read counted happens on the quote path.
        refreshMs: 600_000,
        exchanges: { binance: exchange, coinbase: exchange, kraken: exchange },
        assets: {
          [BTC.id]: {
            sources: [
              {
                kind: "chainlink",
                chain: "ethereum",
                feed: "0x00000000000000000000000000000000000000b1" as Address,
                maxAgeMs: 3_600_000,
              },
              { kind: "binance", symbol: "BTCUSDT", maxAgeMs: 600_000 },
              { kind: "coinbase", symbol: "BTC-USD", maxAgeMs: 600_000 },
              { kind: "kraken", symbol: "XBTUSD", maxAgeMs: 600_000 },
            ],
            minSources: 3,
            maxDeviationBps: 100,
            peg: null,
          },
          [USDC.id]: { sources: [{ kind: "fixed" }], minSources: 1, maxDeviationBps: 0, peg: null },
        },
      },
      strategies: [
        {
          from: BTC.id,
          to: USDC.id,
          minAmount: 1n,
          maxAmount: 10n ** 12n,
          feeBps: 30,
          fixedFee: 0n,
          spreadBps: 0,
          priceSource: "live",
          estimatedTimeSeconds: 60,
          enabled: true,
        },
      ],
      limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
      networkFees: NO_MIN_PROFIT,
      inventoryCurves: {
        [USDC.id]: {
          target: 10n ** 12n,
          points: [
            { ratioBps: 0, extraBps: 100 },
            { ratioBps: 10_000, extraBps: 0 },
          ],
        },
      },
    },
    {
      balances: { balance: async () => 10n ** 12n },
      committed: () => 0n,
      feedReader: () => feed,
      ...freeNetworkIo(chainsOf(BTC, USDC)),
    },
  );
  await pricing.start();
  const server = await startQuoteServer({
    host: "127.0.0.1",
    port: 0,
    quote: pricing.quote,
    logger: pino({ level: "silent" }),
  });
  try {
    const url = `${server.url}/quote?from=${BTC.id}&to=${USDC.id}&from_amount=1000000`;
    const readsBefore =
      tickers.requests.binance + tickers.requests.coinbase + tickers.requests.kraken + feedReads;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: requests }, async () => {
        const sent = performance.now();
        const response = await fetch(url);
        const body = (await response.json()) as { result?: { destination: { amount: string } } };
        return {
          ms: performance.now() - sent,
          ok: response.status === 200,
          amount: body.result?.destination.amount,
        };
      }),
    );
    const totalMs = performance.now() - started;
    const direct = performance.now();
    await Promise.all(
      Array.from({ length: requests }, () =>
        pricing.quote({ from: BTC.id, to: USDC.id, fromAmount: 1_000_000n }),
      ),
    );
    const inProcessMs = performance.now() - direct;
    const readsAfter =
      tickers.requests.binance + tickers.requests.coinbase + tickers.requests.kraken + feedReads;
    return {
      latenciesMs: answers.map((a) => a.ms).sort((a, b) => a - b),
      totalMs,
      amounts: new Set(answers.flatMap((a) => (a.amount === undefined ? [] : [a.amount]))),
      failures: answers.filter((a) => !a.ok).length,
      readsDuringBurst: readsAfter - readsBefore,
      inProcessMs,
    };
  } finally {
    await server.stop();
    await pricing.stop();
    await tickers.stop();
  }
}
