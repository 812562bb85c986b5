/** A Solana asset resolved from config: which HTLC program holds it, and which mint (none for SOL). */
import type { PublicKey } from "@solana/web3.js";
import type { AssetConfig } from "../../config/types.js";
import { solanaAddress } from "./address.js";
import type { HtlcProgramKind } from "./errors.js";
import type { SolanaChainConfig } from "./config.js";

export interface SolanaAsset {
  id: string;
  kind: HtlcProgramKind;
  programId: PublicKey;
  /** The SPL mint; null for native SOL. */
  mint: PublicKey | null;
  config: AssetConfig;
}

export class UnknownSolanaAssetError extends Error {
  constructor(asset: string, chain: string) {
    super(`asset ${asset} is not configured on Solana chain ${chain}`);
    this.name = "UnknownSolanaAssetError";
  }
}

/** What asset resolution reads of a chain's config. */
export type SolanaAssetsConfig = Pick<
  SolanaChainConfig,
  "name" | "nativeProgramId" | "splProgramId" | "assets"
>;

/** SOL itself, not an SPL token: the coin Solana's fees are paid in. */
export function isNativeSol(asset: Pick<AssetConfig, "tokenAddress">): boolean {
  return asset.tokenAddress === "native";
}

/** The chain's coin among its configured assets: native SOL, which pays every fee. */
export function solanaCoin(assets: readonly AssetConfig[]): AssetConfig | undefined {
  return assets.find(isNativeSol);
}

export function resolveSolanaAsset(config: SolanaAssetsConfig, asset: string): SolanaAsset {
  const found = config.assets.find((a) => a.id === asset);
  if (found === undefined) throw new UnknownSolanaAssetError(asset, config.name);
  if (isNativeSol(found)) {
    return {
      id: found.id,
      kind: "native",
      programId: solanaAddress(config.nativeProgramId, `nativeProgramId of ${config.name}`),
      mint: null,
      config: found,
    };
  }
  return {
    id: found.id,
    kind: "spl",
    programId: solanaAddress(config.splProgramId, `splProgramId of ${config.name}`),
    mint: solanaAddress(found.tokenAddress, `mint of ${found.id}`),
    config: found,
  };
}
