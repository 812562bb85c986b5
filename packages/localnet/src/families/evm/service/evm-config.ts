import type { LocalServiceAssetBase } from "../../../service/config.js";

/** An EVM asset. */
export interface LocalServiceAssetConfig extends LocalServiceAssetBase {
  /** ERC20 contract, or `native` (also accepted: 0xEeee…EEeE) for the chain's coin. */
  tokenAddress: string;
  /** `HTLC` for a token, `NativeHTLC` for the coin. */
  htlcAddress: string;
}

export interface LocalServiceEvmChainConfig {
  name: string;
  family: "evm";
  chainId: number;
  rpcUrl: string;
  requiredConfirmations: number;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks. */
  destinationTimelock: number;
  blockTimeMs: number;
  explorerUrl: string;
  assets: LocalServiceAssetConfig[];
}
