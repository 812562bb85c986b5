/**
 * The validated, typed configuration the rest of the solver receives. `load.ts` produces it from defaults,
 * a profile file and the environment; nothing else reads raw config. A chain's settings are its family's
 * (src/chains/registry.ts), over the common ones of `common-chain.ts`.
 * Amounts are bigint in smallest units; durations are milliseconds unless the name says otherwise.
 */
import type { ChainConfig, SolverKeys } from "../chains/registry.js";
import type { NetworkFeeSettings } from "../pricing/network-fees/facts.js";

export type { AssetConfig, CommonChainConfig } from "./common-chain.js";

export interface PricingStrategy {
  /** Source asset id. */
  from: string;
  /** Destination asset id. */
  to: string;
  minAmount: bigint;
  maxAmount: bigint;
  /** Fee in basis points of the source amount. */
  feeBps: number;
  /** Fixed fee in smallest units of the destination asset. */
  fixedFee: bigint;
  /** Extra spread in basis points taken off the destination amount. */
  spreadBps: number;
  /** Where prices come from: `fixed` uses `fixedPrices`, `live` the sources of `prices.assets`. */
  priceSource: "fixed" | "live";
  estimatedTimeSeconds: number;
  /** A disabled pair is neither quoted nor filled; switched without a restart by a reload. */
  enabled: boolean;
}

/** The public exchanges whose REST tickers the solver can read. */
export type ExchangeName = "binance" | "coinbase" | "kraken";

export interface ExchangeConfig {
  /** Base URL of the exchange's public REST API (tests and the localnet point it at a local server). */
  baseUrl: string;
  /** A ticker request that takes longer is abandoned. */
  timeoutMs: number;
  /** A ticker read longer ago than this no longer counts as a fresh price. */
  maxAgeMs: number;
}

/** One place an asset's USD price is read from. */
export type PriceSourceSpec =
  | {
      kind: "chainlink";
      /** A configured EVM chain; the feed is read through the solver's own RPC URLs for it. */
      chain: string;
      /** Address of the aggregator (AggregatorV3Interface), checksummed. */
      feed: string;
      /** The feed's answer is stale once its `updatedAt` is older than this. */
      maxAgeMs: number;
    }
  | {
      kind: ExchangeName;
      /** The exchange's own name of the market, e.g. `BTCUSDT`, `BTC-USD`, `XBTUSD`. */
      symbol: string;
      maxAgeMs: number;
    }
  | { kind: "fixed" };

/** A wrapped or pegged asset is priced as its base, and only while its own price stays near the base's. */
export interface PegConfig {
  /** The base asset id (priced by `prices.assets`), or `usd` for a USD stablecoin. */
  base: string;
  /** The asset's own aggregated price may differ from the base's by at most this much, in bps. */
  maxDeviationBps: number;
  /** What the asset's own sources quote: USD, or the ratio to the base (a WBTC/BTC feed). */
  quotedIn: "usd" | "base";
}

export interface AssetPriceConfig {
  sources: PriceSourceSpec[];
  /** Fewer fresh sources than this and the asset is not quoted. */
  minSources: number;
  /** Fresh sources further apart than this (max − min, in bps of the median) and the asset is not quoted. */
  maxDeviationBps: number;
  peg: PegConfig | null;
}

export interface PricesConfig {
  /** Interval of the background refresh of every live source. */
  refreshMs: number;
  exchanges: Record<ExchangeName, ExchangeConfig>;
  /** Live price sources per asset id; assets not listed here are priced by `fixedPrices`. */
  assets: Record<string, AssetPriceConfig>;
}

/** One point of an inventory curve: at this inventory ratio the fee changes by `extraBps`. */
export interface CurvePoint {
  /** Inventory over target, in bps: 10000 is exactly at target. */
  ratioBps: number;
  /** Added to the strategy's `feeBps`; negative narrows the fee. */
  extraBps: number;
}

/** How the fee follows a destination asset's inventory: piecewise linear between the points. */
export interface InventoryCurve {
  /** The inventory the solver aims to hold, smallest units. */
  target: bigint;
  /** At least two, sorted by strictly increasing `ratioBps`. */
  points: CurvePoint[];
}

export interface Limits {
  /** Per-order ceiling per source asset id, smallest units. */
  maxOrderAmount: Record<string, bigint>;
  /** Balance below which the solver stops filling from this asset, per destination asset id. */
  inventoryFloor: Record<string, bigint>;
  /** Total value in flight (filled, not yet redeemed), in USD cents. */
  maxInFlightUsdCents: bigint;
}

export interface SafetyConfig {
  /** Remaining source time must exceed the destination timelock by at least this much. */
  timelockMarginMs: number;
  /** Redeem the source at least this long before it can be refunded; fees escalate inside it. */
  redeemDeadlineMarginMs: number;
  /** An order may ask for at most this much more than the solver would quote at fill time, in bps. */
  priceToleranceBps: number;
  /**
   * A source redeem near its deadline may pay fees above the chain's ceiling, up to this share (bps) of
   * the coin it redeems: a missed redeem loses the whole source.
   */
  urgentRedeemFeeBps: number;
  /**
   * Fill orders whose client holds the secret even where the destination chain accepts a preimage of any
   * length (Bitcoin) while the source needs exactly 32 bytes. Off by default: such a client can redeem the
   * fill with a longer preimage that the source's contract then refuses.
   */
  allowUnenforcedSecretLength: boolean;
}

export interface QuoteEndpointConfig {
  host: string;
  port: number;
  listenBacklog: number;
  keepAliveTimeoutMs: number;
  /** Signed requests only, when `secret` is set (docs/solver-quote-api.md, Authentication). */
  auth: { secret: string; maxClockSkewMs: number };
  /** Bounds on quotes priced at once and per client; beyond them requests are answered 429 at once. */
  limits: { maxConcurrent: number; perClientPerSecond: number; perClientBurst: number };
}

export interface SolverConfig {
  service: { url: string; appId: string };
  solver: {
    /** Hex id the service knows this solver by. */
    id: string;
    pollIntervalMs: number;
    /** Tip reads of each chain while a block is due; an event in a new block is acted on at once. */
    watchIntervalMs: number;
    /** Orders processed at once in a round. */
    orderConcurrency: number;
    /** A solver that has not renewed its journal lease for this long is taken to have stopped. */
    leaseTtlMs: number;
    /** A clean stop taking longer than this ends the process anyway (exit 1). */
    shutdownDeadlineMs: number;
    keys: SolverKeys;
  };
  chains: ChainConfig[];
  /** USD price per whole unit, decimal string, per asset id (for the `fixed` price source). */
  fixedPrices: Record<string, string>;
  /** Live price sources: on-chain feeds and exchange tickers, aggregated per asset. */
  prices: PricesConfig;
  strategies: PricingStrategy[];
  /** Per destination asset id: the fee widens as its inventory falls below target. */
  inventoryCurves: Record<string, InventoryCurve>;
  limits: Limits;
  /** What quotes charge for network fees and minimum profit, and how fee estimates are read. */
  networkFees: NetworkFeeSettings;
  safety: SafetyConfig;
  journal: { path: string };
  ops: { host: string; port: number };
  quote: QuoteEndpointConfig;
  log: { level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" };
}
