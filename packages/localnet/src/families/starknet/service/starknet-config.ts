import type { OrderIdLayout } from "htlc-solver/chains/starknet/order-id.js";
import type { LocalServiceAssetBase } from "../../../service/config.js";

/** A Starknet asset: an ERC20 and the HTLC contract that holds it (one HTLC per token). */
export interface LocalServiceStarknetAssetConfig extends LocalServiceAssetBase {
  tokenAddress: string;
  htlcAddress: string;
}

export interface LocalServiceStarknetChainConfig {
  name: string;
  family: "starknet";
  /** The chain id short string hashed into order ids and signed in SNIP-12 domains (`SN_SEPOLIA`). */
  chainId: string;
  rpcUrl: string;
  /** How the chain's HTLCs compute order ids and what their SNIP-12 messages carry. */
  orderIdLayout: OrderIdLayout;
  /**
   * The account that pays the service's redeems and relayed initiates on this chain, and its Stark
   * private key (64 hex). The key never leaves the service.
   */
  relayerAddress: string;
  relayerPrivateKey: string;
  /** Blocks past the initiate's block, counted at `latest`. */
  requiredConfirmations: number;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks. */
  destinationTimelock: number;
  blockTimeMs: number;
  explorerUrl?: string;
  assets: LocalServiceStarknetAssetConfig[];
}
