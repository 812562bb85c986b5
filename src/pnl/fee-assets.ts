/** The coin each chain's network fees are paid in, as a configured asset where there is one. */
import { coinOf } from "../chains/coins.js";
import { familyOf, type ChainConfig } from "../chains/registry.js";
import type { FeeAsset } from "./settlement.js";

/** Fees of a chain not configured at all (never the case for the solver's own): 18 decimals, as on EVM. */
const UNKNOWN_CHAIN_DECIMALS = 18;

/**
 * Per chain: its coin as its family tells it (`coin`). A chain that lists no such asset still has its
 * fees counted, as `<chain>:native` in the family's coin decimals; without a price they are reported unpriced.
 */
export function feeAssets(chains: readonly ChainConfig[]): (chain: string) => FeeAsset {
  const byChain = new Map<string, FeeAsset>();
  for (const chain of chains) {
    const coin = coinOf(chain);
    const fallback = { id: `${chain.name}:native`, decimals: familyOf(chain.family).coinDecimals };
    byChain.set(chain.name, coin === undefined ? fallback : { id: coin.id, decimals: coin.decimals });
  }
  return (chain) => byChain.get(chain) ?? { id: `${chain}:native`, decimals: UNKNOWN_CHAIN_DECIMALS };
}
