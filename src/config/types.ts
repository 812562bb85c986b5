/**
 * The validated, typed configuration the rest of the solver receives. `schema.ts` (convict) produces it
 * from defaults, a profile file and the environment; nothing else reads raw config.
 * Amounts are bigint in smallest units; durations are milliseconds unless the name says otherwise.
 */
import type { ChainFamily } from "../chains/chain.js";

export interface AssetConfig {
  /** Asset id as in the API: `<chain>:<symbol>`. */
  id: string;
  chain: string;
  symbol: string;
  decimals: number;
  /**
   * Token contract; `native` for the chain's own coin (EVM: 0xEeee…, Bitcoin: `primary`, Solana:
   * `native`). Solana tokens: the SPL mint address.
   */
  tokenAddress: string;
  /**
   * HTLC contract (EVM: `HTLC` for tokens, `NativeHTLC` for the coin); empty on Bitcoin. Solana: the
   * HTLC program of the asset (the native program for SOL, the SPL program for tokens).
   */
  htlcAddress: string;
}

export interface EvmChainConfig {
  family: "evm";
  name: string;
  chainId: number;
  rpcUrls: string[];
  /**
   * Shortest plausible block interval: bounds from below how long a source timelock here still lasts.
   */
  minBlockTimeMs: number;
  /** Longest plausible block interval: bounds from above how long a destination timelock here lasts. */
  maxBlockTimeMs: number;
  /** Confirmations the solver itself requires on a source here, whatever the service says. */
  minConfirmations: number;
  /**
   * Depth at which a block is taken as final here: the solver follows each of its transactions until it
   * is this deep, and treats a transaction displaced by another only once that one is this deep.
   */
  finalityDepth: number;
  /** Destination timelock the solver sets when it fills here, in blocks. */
  fillTimelockBlocks: number;
  /** A pending transaction older than this is re-priced. */
  bumpAfterMs: number;
  /** Ceiling for maxFeePerGas, wei. */
  maxFeePerGasWei: bigint;
  /** An endpoint whose head is more blocks than this below the best endpoint's is not read from. */
  maxHeadLagBlocks: number;
  /**
   * A head whose block is older than this by the wall clock is stale (src/chains/rpc/head-age.ts): no tip
   * is counted from it. Unset in a config built in code: derived from `maxBlockTimeMs`.
   */
  maxHeadAgeMs?: number;
  /** Per-request timeout of each RPC endpoint. */
  rpcTimeoutMs: number;
  /**
   * Actions one transaction carries at most: redeems and refunds batch through Multicall3, fills only with
   * `batchFills`. 1 sends every action alone. Unset in a config built in code: 50 (src/chains/evm/batch).
   */
  maxBatch?: number;
  /** `eip7702`: fills batch through the account's delegation to `batchExecutor`; `none` (default): one per transaction. */
  batchFills?: "none" | "eip7702";
  /** The project's BatchExecutor on this chain, which the account delegates to; required with `eip7702`. */
  batchExecutor?: string;
  assets: AssetConfig[];
}

export interface BitcoinChainConfig {
  family: "bitcoin";
  name: string;
  network: "mainnet" | "testnet" | "regtest";
  backend: "bitcoind" | "esplora";
  /** bitcoind JSON-RPC endpoints (the `rpcUrl` key gives a list of one); empty with backend esplora. */
  rpcUrls: string[];
  /** Credentials for the endpoints whose URL carries none. */
  rpcUser: string;
  rpcPassword: string;
  /** Esplora REST bases (the `esploraUrl` key gives a list of one); empty with backend bitcoind. */
  esploraUrls: string[];
  /** An endpoint whose head is more blocks than this below the best endpoint's is not read from. */
  maxHeadLagBlocks: number;
  /**
   * A head whose block is older than this by the wall clock is stale (src/chains/rpc/head-age.ts): no tip
   * is counted from it. Unset in a config built in code: derived from `maxBlockTimeMs`.
   */
  maxHeadAgeMs?: number;
  /** Per-request timeout of each endpoint. */
  rpcTimeoutMs: number;
  minBlockTimeMs: number;
  maxBlockTimeMs: number;
  minConfirmations: number;
  finalityDepth: number;
  fillTimelockBlocks: number;
  bumpAfterMs: number;
  feeRateFloorSatVb: number;
  feeRateCeilingSatVb: number;
  /** Actions (fills, redeems, refunds) one transaction carries at most. */
  maxBatch: number;
  assets: AssetConfig[];
}

/** Commitment levels the solver reads a Solana cluster at. */
export type SolanaCommitment = "confirmed" | "finalized";

export interface SolanaChainConfig {
  family: "solana";
  name: string;
  /** The chain id the service hashes into the API's Solana swap ids (103 on the test network). */
  chainId: number;
  rpcUrls: string[];
  /** HTLC program for native SOL (base58). */
  nativeProgramId: string;
  /** HTLC program for SPL tokens (base58). */
  splProgramId: string;
  /**
   * Commitment the solver reads accounts, tips and history at. A source's confirmations are counted in
   * slots at this commitment; the solver's own transactions count as mined once `confirmed`.
   */
  commitment: SolanaCommitment;
  /** Shortest plausible slot time: bounds how long a source timelock (slots) still lasts. */
  minBlockTimeMs: number;
  /** Longest plausible slot time: bounds how long a destination timelock (slots) lasts. */
  maxBlockTimeMs: number;
  /** Slots a source must be deep (at `commitment`) on the solver's own node. */
  minConfirmations: number;
  /**
   * Slots deep (at `commitment`) at which the solver takes its own transaction as final: followed until
   * then; the cluster's `finalized` is 32 slots behind the tip.
   */
  finalityDepth: number;
  /** Destination timelock the solver sets when it fills here, in slots. */
  fillTimelockBlocks: number;
  /** A transaction still pending (processed, not confirmed) after this long is looked at again. */
  bumpAfterMs: number;
  /** An endpoint whose slot is more than this many slots below the best endpoint's is not read from. */
  maxHeadLagBlocks: number;
  /** A slot whose block time is older than this is stale; unset: derived from `maxBlockTimeMs`. */
  maxHeadAgeMs?: number;
  rpcTimeoutMs: number;
  /** Bounds of the compute unit price the solver pays (priority fee), micro-lamports per unit. */
  computeUnitPriceFloorMicroLamports: bigint;
  computeUnitPriceCeilingMicroLamports: bigint;
  assets: AssetConfig[];
}

export type ChainConfig = EvmChainConfig | BitcoinChainConfig | SolanaChainConfig;

export interface SolverKeys {
  /** 0x-prefixed 32-byte hex private key for every EVM chain. */
  evm: string;
  /** 32-byte hex private key for Bitcoin (Taproot x-only key derived from it). */
  bitcoin: string;
  /** Solana secret key: base58 of the 64 bytes (seed and public key). */
  solana: string;
}

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
  safety: SafetyConfig;
  journal: { path: string };
  ops: { host: string; port: number };
  quote: QuoteEndpointConfig;
  log: { level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" };
}

export type { ChainFamily };
