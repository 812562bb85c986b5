/**
 * A pricing with live prices (two on-chain feeds for BTC, a pegged WBTC), fixed ones, an inventory curve,
 * floors and an exposure limit, over balances and journal amounts a test sets: the facts a quote reads,
 * for comparing quotes on the main thread with quotes from a snapshot of the same facts.
 */
import type { Address } from "viem";
import type { FeedReader, RoundData } from "../../../../src/pricing/live/chainlink-feed.js";
import { createPricing, type Pricing, type PricingConfig } from "../../../../src/pricing/pricing.js";
import { BTC, ETH, MemoryBalances, NO_LIVE_PRICES, PRICES, SOLVER_ID, USDC, strategy } from "../fixtures.js";
import { chainsOf } from "../../../support/coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../../../support/network-fees.js";

export const WBTC = { ...BTC, id: "ethereum:WBTC", chain: "ethereum", symbol: "WBTC", tokenAddress: "0x01" };
const FEED_A = "0x00000000000000000000000000000000000000a1" as Address;
const FEED_B = "0x00000000000000000000000000000000000000b1" as Address;
const FEED_WBTC = "0x00000000000000000000000000000000000000c1" as Address;
export const FEED_MAX_AGE_MS = 60_000;
export const NOW_MS = 1_900_000_000_000;

/** Feeds answering what a test sets, as of when it says. */
export class SetFeeds implements FeedReader {
  private readonly rounds = new Map<string, RoundData>();

  set(feed: Address, usd: bigint, updatedAtMs = NOW_MS): void {
    const updatedAt = BigInt(Math.floor(updatedAtMs / 1000));
    this.rounds.set(feed, {
      roundId: 1n,
      answer: usd * 10n ** 8n,
      startedAt: updatedAt,
      updatedAt,
      answeredInRound: 1n,
    });
  }

  async decimals(): Promise<number> {
    return 8;
  }

  async latestRoundData(feed: Address): Promise<RoundData> {
    const round = this.rounds.get(feed);
    if (round === undefined) throw new Error(`no feed at ${feed}`);
    return round;
  }
}

export interface Facts {
  /** The two BTC feeds and the WBTC feed, USD, and how old the first one's answer is. */
  btcA?: bigint;
  btcB?: bigint;
  wbtc?: bigint;
  btcAAgeMs?: number;
  balances?: Record<string, bigint>;
  /** A balance read that fails. */
  failingBalance?: string;
  committed?: Record<string, bigint>;
  inFlight?: Record<string, bigint>;
}

const chainlink = (feed: Address) => ({
  kind: "chainlink" as const,
  chain: "ethereum",
  feed,
  maxAgeMs: FEED_MAX_AGE_MS,
});

export const CONFIG: PricingConfig = {
  solver: { id: SOLVER_ID },
  chains: chainsOf(USDC, ETH, WBTC, BTC),
  fixedPrices: PRICES,
  prices: {
    ...NO_LIVE_PRICES,
    refreshMs: 600_000,
    assets: {
      // The fixed table as a live source: read from memory, never old (its maxAgeMs is Infinity).
      [USDC.id]: { sources: [{ kind: "fixed" }], minSources: 1, maxDeviationBps: 0, peg: null },
      [BTC.id]: {
        sources: [chainlink(FEED_A), chainlink(FEED_B)],
        minSources: 2,
        maxDeviationBps: 100,
        peg: null,
      },
      [WBTC.id]: {
        sources: [chainlink(FEED_WBTC)],
        minSources: 1,
        maxDeviationBps: 0,
        peg: { base: BTC.id, maxDeviationBps: 50, quotedIn: "usd" },
      },
    },
  },
  strategies: [
    strategy(BTC, USDC, { priceSource: "live", feeBps: 30, maxAmount: 10n ** 10n }),
    strategy(USDC, BTC, { priceSource: "live", feeBps: 20 }),
    strategy(WBTC, USDC, { priceSource: "live" }),
    strategy(ETH, USDC, { fixedFee: 1_000n }),
  ],
  limits: {
    maxOrderAmount: {},
    inventoryFloor: { [USDC.id]: 1_000_000_000n, [BTC.id]: 10_000n },
    maxInFlightUsdCents: 50_000_000n,
  },
  networkFees: NO_MIN_PROFIT,
  inventoryCurves: {
    [USDC.id]: {
      target: 200_000_000_000n,
      points: [
        { ratioBps: 0, extraBps: 100 },
        { ratioBps: 10_000, extraBps: 0 },
      ],
    },
  },
};

export const DEFAULT_BALANCES: Record<string, bigint> = {
  [USDC.id]: 100_000_000_000n,
  [BTC.id]: 500_000_000n,
  [ETH.id]: 10n ** 20n,
  [WBTC.id]: 0n,
};

/** A started pricing over the given facts, its clock stopped at NOW_MS. */
export async function pricingOver(facts: Facts): Promise<Pricing> {
  const feeds = new SetFeeds();
  feeds.set(FEED_A, facts.btcA ?? 65_000n, NOW_MS - (facts.btcAAgeMs ?? 0));
  feeds.set(FEED_B, facts.btcB ?? 65_100n);
  feeds.set(FEED_WBTC, facts.wbtc ?? 65_050n);
  const balances = new MemoryBalances(new Map(Object.entries({ ...DEFAULT_BALANCES, ...facts.balances })));
  const failing = facts.failingBalance;
  const pricing = createPricing(CONFIG, {
    balances: {
      balance: (assetId) =>
        assetId === failing ? Promise.reject(new Error("node unreachable")) : balances.balance(assetId),
    },
    committed: (assetId) => facts.committed?.[assetId] ?? 0n,
    inFlight: (assetId) => facts.inFlight?.[assetId] ?? 0n,
    feedReader: () => feeds,
    now: () => NOW_MS,
    ...freeNetworkIo(CONFIG.chains),
  });
  await pricing.start();
  return pricing;
}
