/**
 * Each chain's own coin, the asset its fees are paid in, as the chain's family tells it: one of its
 * configured assets, or, where it trades none, the coin it declares by symbol (`coinSymbol`), which is
 * priced for fees and never quoted or filled.
 */
import type { AssetConfig } from "../config/common-chain.js";
import { familyOf, type ChainConfig } from "./registry.js";

/** What telling a chain's coin reads of its configuration. */
export type CoinChain = Pick<ChainConfig, "name" | "family" | "assets"> & { coinSymbol?: string | undefined };

/** A coin known by its symbol alone: no token or HTLC, the family's decimals. */
function declaredCoin(chain: CoinChain, symbol: string): AssetConfig {
  const decimals = familyOf(chain.family).coinDecimals;
  return {
    id: `${chain.name}:${symbol}`,
    chain: chain.name,
    symbol,
    decimals,
    tokenAddress: "",
    htlcAddress: "",
  };
}

/** The chain's coin: among its configured assets, else the one it declares; undefined when neither. */
export function coinOf(chain: CoinChain): AssetConfig | undefined {
  const listed = familyOf(chain.family).coin(chain.assets);
  if (listed !== undefined || chain.coinSymbol === undefined) return listed;
  return declaredCoin(chain, chain.coinSymbol);
}

/** The coins chains declare without listing them as assets: what fee pricing needs beside the assets. */
export function declaredCoinsOf(chains: readonly CoinChain[]): AssetConfig[] {
  return chains.flatMap((chain) => {
    const coin = coinOf(chain);
    return coin !== undefined && !chain.assets.some((asset) => asset.id === coin.id) ? [coin] : [];
  });
}

/** Per chain name, the id of its coin; chains that list or declare none are left out. */
export function feeCoinsOf(chains: readonly CoinChain[]): Record<string, string> {
  const coins: Record<string, string> = {};
  for (const chain of chains) {
    const coin = coinOf(chain);
    if (coin !== undefined) coins[chain.name] = coin.id;
  }
  return coins;
}
