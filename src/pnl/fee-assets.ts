/** The coin each chain's network fees are paid in, as a configured asset where there is one. */
import { isNativeToken } from "../chains/evm/assets.js";
import type { ChainConfig } from "../config/types.js";
import type { FeeAsset } from "./settlement.js";

/** EVM gas is paid in wei of the chain's coin, 18 decimals on every EVM chain. */
const EVM_COIN_DECIMALS = 18;
/** Decimals of each family's fee coin (satoshis, wei, lamports). */
const COIN_DECIMALS: Record<ChainConfig["family"], number> = {
  bitcoin: 8,
  evm: EVM_COIN_DECIMALS,
  solana: 9,
};

/**
 * Per chain: its native asset (EVM and Solana `native`, Bitcoin `primary`). A chain that lists no such asset still
 * has its fees counted, as `<chain>:native`; without a price they are reported unpriced.
 */
export function feeAssets(chains: readonly ChainConfig[]): (chain: string) => FeeAsset {
  const byChain = new Map<string, FeeAsset>();
  for (const chain of chains) {
    const coin = chain.assets.find((a) =>
      chain.family === "bitcoin" ? a.tokenAddress === "primary" : isNativeToken(a.tokenAddress),
    );
    const fallback = {
      id: `${chain.name}:native`,
      decimals: COIN_DECIMALS[chain.family],
    };
    byChain.set(chain.name, coin === undefined ? fallback : { id: coin.id, decimals: coin.decimals });
  }
  return (chain) => byChain.get(chain) ?? { id: `${chain}:native`, decimals: EVM_COIN_DECIMALS };
}
