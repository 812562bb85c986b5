import type { LocalServiceAssetBase } from "../../../service/config.js";

/** The Bitcoin asset (`btc`, 8 decimals): no contract, the HTLC is a script. */
export type LocalServiceBitcoinAssetConfig = LocalServiceAssetBase;

export interface LocalServiceBitcoinChainConfig {
  name: string;
  family: "bitcoin";
  network: "mainnet" | "testnet" | "regtest";
  /** bitcoind JSON-RPC (or the project's regtest node). */
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  requiredConfirmations: number;
  /** Blocks (CSV), at most 65535. */
  sourceTimelock: number;
  /** Blocks (CSV), at most 65535. */
  destinationTimelock: number;
  blockTimeMs: number;
  /** Empty when there is none. */
  explorerUrl?: string;
  /**
   * Highest fee rate, sat/vB, the service pays for its own spends (service redeem, refund) and accepts in
   * an instant refund it completes; 100 when absent.
   */
  maxFeeRateSatVb?: number;
  /** How far below the tip the watcher searches a newly watched HTLC address; 1008 when absent. */
  lookbackBlocks?: number;
  assets: LocalServiceBitcoinAssetConfig[];
}
