import type { CoinChain } from "../../src/chains/coins.js";
import type { AssetConfig } from "../../src/config/types.js";

/**
 * Chains of the given assets, grouped by `asset.chain` in the order given, as EVM chains: their coin is
 * their first asset written `native` (or as the 0xEeee… sentinel).
 */
export function chainsOf(...assets: AssetConfig[]): CoinChain[] {
  const chains: CoinChain[] = [];
  for (const asset of assets) {
    const chain = chains.find((c) => c.name === asset.chain);
    if (chain === undefined) chains.push({ name: asset.chain, family: "evm", assets: [asset] });
    else chain.assets.push(asset);
  }
  return chains;
}
