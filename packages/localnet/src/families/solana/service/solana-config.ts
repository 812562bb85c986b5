import type { SolanaProgramVersion } from "htlc-solver/chains/solana/program-version.js";
import type { LocalServiceAssetBase } from "../../../service/config.js";

/** A Solana asset: `native` for SOL, or the SPL mint (base58). */
export interface LocalServiceSolanaAssetConfig extends LocalServiceAssetBase {
  tokenAddress: string;
}

export interface LocalServiceSolanaChainConfig {
  name: string;
  family: "solana";
  /** The chain id hashed into Solana swap ids (103 on the test network). */
  chainId: number;
  rpcUrl: string;
  /** HTLC programs (base58). */
  nativeProgramId: string;
  splProgramId: string;
  /** The interface both programs speak (the solver's `programVersion`). */
  programVersion: SolanaProgramVersion;
  /**
   * The 64-byte secret key (base58) that pays the fees of the service's redeems on this chain. It
   * never leaves the service.
   */
  relayerSecretKey: string;
  /** Slots, counted at `confirmed`. */
  requiredConfirmations: number;
  /** Slots. */
  sourceTimelock: number;
  /** Slots. */
  destinationTimelock: number;
  /** Slot time. */
  blockTimeMs: number;
  explorerUrl?: string;
  assets: LocalServiceSolanaAssetConfig[];
}
