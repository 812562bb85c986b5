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

/** Token addresses that name a chain's own coin rather than a token contract. */
const OWN_COIN = new Set(["native", "primary", "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"]);

/** The asset a chain pays its fees in (its own coin), when configured; its floor keeps fees payable. */
export function gasAssetOf(assets: AssetIndex, chain: string): string | null {
  for (const asset of assets.values()) {
    if (asset.chain === chain && OWN_COIN.has(asset.tokenAddress.toLowerCase())) return asset.id;
  }
  return null;
}
