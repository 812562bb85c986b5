import type { AssetConfig } from "../config/types.js";
import { formatUnits } from "./decimal.js";

/** Asset configs by API asset id (`<chain>:<symbol>`). */
export type AssetIndex = ReadonlyMap<string, AssetConfig>;

/** Any chain config: only its asset list matters here. */
export interface ChainAssets {
  assets: readonly AssetConfig[];
}

export function indexAssets(chains: readonly ChainAssets[]): AssetIndex {
  const index = new Map<string, AssetConfig>();
  for (const chain of chains) {
    for (const asset of chain.assets) index.set(asset.id, asset);
  }
  return index;
}

/** `"1.5 ethereum:USDC (1500000)"`: whole units for people, smallest units for exactness. */
export function describeAmount(amount: bigint, asset: AssetConfig): string {
  return `${formatUnits(amount, asset.decimals)} ${asset.id} (${amount})`;
}

/**
 * Per chain, the configured asset it pays its fees in (its own coin, as its family tells it:
 * src/chains/coins.ts); a chain that lists none is absent. Plain data, so the quote thread has it too.
 */
export type FeeCoins = Readonly<Record<string, string>>;

/** The asset a chain pays its fees in, when configured; its floor keeps fees payable. */
export function gasAssetOf(feeCoins: FeeCoins, chain: string): string | null {
  return feeCoins[chain] ?? null;
}
