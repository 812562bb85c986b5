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
  /** Token contract; `native` for the chain's own coin (EVM: 0xEeee…, Bitcoin: `primary`). */
  tokenAddress: string;
  /** HTLC contract (EVM: `HTLC` for tokens, `NativeHTLC` for the coin); empty on Bitcoin. */
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
  /** Destination timelock the solver sets when it fills here, in blocks. */
  fillTimelockBlocks: number;
  /** A pending transaction older than this is re-priced. */
  bumpAfterMs: number;
  /** Ceiling for maxFeePerGas, wei. */
  maxFeePerGasWei: bigint;
  /** An endpoint whose head is more blocks than this below the best endpoint's is not read from. */
  maxHeadLagBlocks: number;
  /** Per-request timeout of each RPC endpoint. */
  rpcTimeoutMs: number;
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
  /** Per-request timeout of each endpoint. */
  rpcTimeoutMs: number;
  minBlockTimeMs: number;
  maxBlockTimeMs: number;
  minConfirmations: number;
  fillTimelockBlocks: number;
  bumpAfterMs: number;
  feeRateFloorSatVb: number;
  feeRateCeilingSatVb: number;
  /** Actions (fills, redeems, refunds) one transaction carries at most. */
  maxBatch: number;
  assets: AssetConfig[];
}

export type ChainConfig = EvmChainConfig | BitcoinChainConfig;

export interface SolverKeys {
  /** 0x-prefixed 32-byte hex private key for every EVM chain. */
  evm: string;
  /** 32-byte hex private key for Bitcoin (Taproot x-only key derived from it). */
  bitcoin: string;
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
  /** Where prices come from: `fixed` uses `fixedPrices`. */
  priceSource: "fixed";
  estimatedTimeSeconds: number;
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
   * Fill orders whose client holds the secret even where the destination chain accepts a preimage of any
   * length (Bitcoin) while the source needs exactly 32 bytes. Off by default: such a client can redeem the
   * fill with a longer preimage that the source's contract then refuses.
   */
  allowUnenforcedSecretLength: boolean;
}

export interface SolverConfig {
  service: { url: string; appId: string };
  solver: {
    /** Hex id the service knows this solver by. */
    id: string;
    pollIntervalMs: number;
    keys: SolverKeys;
  };
  chains: ChainConfig[];
  /** USD price per whole unit, decimal string, per asset id (for the `fixed` price source). */
  fixedPrices: Record<string, string>;
  strategies: PricingStrategy[];
  limits: Limits;
  safety: SafetyConfig;
  journal: { path: string };
  ops: { host: string; port: number };
  quote: { host: string; port: number };
  log: { level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" };
}

export type { ChainFamily };
