/** The Solana chain's part of `localnet.json` (README, "Local system"). */
import type { SolanaProgramVersion } from "htlc-solver/chains/solana/program-version.js";
import { assetId } from "../../localnet-config.js";

export interface LocalnetSolanaAssetDescriptor {
  id: string;
  symbol: string;
  decimals: number;
  /** `native` for SOL, or the SPL mint. */
  tokenAddress: string;
  /** The asset's HTLC program. */
  htlcAddress: string;
}

export interface LocalnetSolanaChainDescriptor {
  name: string;
  family: "solana";
  /** The chain id hashed into Solana swap ids. */
  chainId: number;
  /** JSON-RPC of the local cluster (no WebSocket: confirm by polling getSignatureStatuses). */
  rpcUrl: string;
  nativeProgramId: string;
  splProgramId: string;
  /** The interface both programs speak. */
  programVersion: SolanaProgramVersion;
  assets: LocalnetSolanaAssetDescriptor[];
}

/** A user's Solana key, from a public label like every localnet key: localnet only. */
export interface LocalnetSolanaUserKey {
  /** The 64-byte secret key, base58. */
  secretKey: string;
  address: string;
}

export interface LocalnetSolanaDescriptor {
  solana: LocalnetSolanaChainDescriptor;
}

export interface LocalnetSolanaSolverDescriptor {
  /** The solver's Solana address (funds its fills, is the redeemer of Solana sources). */
  solanaAddress: string;
}

export interface LocalnetSolanaUserDescriptor {
  solana: LocalnetSolanaUserKey;
}

export interface LocalSolanaChainPlan {
  name: string;
  /** The chain id hashed into Solana swap ids. */
  chainId: number;
  rpcUrl: string;
  nativeProgramId: string;
  splProgramId: string;
  programVersion: SolanaProgramVersion;
  /** The USDC-like SPL mint. */
  usdcMint: string;
  /** Slots. */
  sourceTimelock: number;
  /** Slots; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

/** The Solana assets of the localnet: SOL and a USDC-like token of the plan's mint. */
export function solanaAssets(plan: LocalSolanaChainPlan) {
  return [
    { symbol: "sol", name: "SOL (localnet)", decimals: 9, tokenAddress: "native" },
    { symbol: "usdc", name: "USD Coin (localnet Solana)", decimals: 6, tokenAddress: plan.usdcMint },
  ];
}

export function solanaChainDescriptor(plan: LocalSolanaChainPlan): LocalnetSolanaChainDescriptor {
  return {
    name: plan.name,
    family: "solana",
    chainId: plan.chainId,
    rpcUrl: plan.rpcUrl,
    nativeProgramId: plan.nativeProgramId,
    splProgramId: plan.splProgramId,
    programVersion: plan.programVersion,
    assets: solanaAssets(plan).map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.tokenAddress === "native" ? plan.nativeProgramId : plan.splProgramId,
    })),
  };
}
