/** Each chain's own coin, the asset its fees are paid in, as the chain's family tells it. */
import type { AssetConfig } from "../config/common-chain.js";
import { familyOf, type ChainConfig } from "./registry.js";

/** What telling a chain's coin reads of its configuration. */
export type CoinChain = Pick<ChainConfig, "name" | "family" | "assets">;

/** The chain's coin among its configured assets; undefined when it lists none. */
export function coinOf(chain: CoinChain): AssetConfig | undefined {
  return familyOf(chain.family).coin(chain.assets);
}

/** Per chain name, the id of its coin; chains that list none are left out. */
export function feeCoinsOf(chains: readonly CoinChain[]): Record<string, string> {
  const coins: Record<string, string> = {};
  for (const chain of chains) {
    const coin = coinOf(chain);
    if (coin !== undefined) coins[chain.name] = coin.id;
  }
  return coins;
}
