import type { LocalServiceAssetBase } from "../../../service/config.js";

/** A Sui asset: a coin type and the `OrdersRegistry<CoinType>` shared object that holds its orders. */
export interface LocalServiceSuiAssetConfig extends LocalServiceAssetBase {
  /** The Move coin type (`0x2::sui::SUI`): the asset's `token_address` in the API. */
  coinType: string;
  /** The registry's object id (`0x` and 64 hex): the asset's `htlc_address` in the API. */
  registryId: string;
  /** The registry's initial shared version, which every transaction that takes it names. */
  registryInitialSharedVersion: string;
}

export interface LocalServiceSuiChainConfig {
  name: string;
  family: "sui";
  /** The chain's name in the API (`sui_testnet`, `sui`; `sui_localnet` here). */
  chainId: string;
  rpcUrl: string;
  /** The `AtomicSwap` package (`0x` and 64 hex). */
  packageId: string;
  /**
   * The account that pays the service's redeems on this chain (anyone may redeem on Sui; the coins go to
   * the stored redeemer), and its Ed25519 key (`suiprivkey…`). The key never leaves the service.
   */
  relayerAddress: string;
  relayerPrivateKey: string;
  /** Checkpoints at or after the initiate's (the initiate's own counts as the first). */
  requiredConfirmations: number;
  /** Milliseconds, as the Move module takes them. */
  sourceTimelock: number;
  /** Milliseconds. */
  destinationTimelock: number;
  /** Milliseconds between checkpoints. */
  blockTimeMs: number;
  explorerUrl?: string;
  assets: LocalServiceSuiAssetConfig[];
}
