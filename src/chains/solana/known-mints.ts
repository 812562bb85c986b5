/**
 * Solana clusters of the live service, by the chain name the service gives them: the chain id it hashes
 * into swap ids, the cluster's genesis hash, and the SPL mints it publishes, with their decimals. docs/live-networks.md cites the
 * source of every entry. A profile chain of one of these names is checked against it offline: a wrong
 * mint is valid base58 and would otherwise pass.
 */
import type { AssetConfig } from "../../config/common-chain.js";
import { publishedAssetProblems } from "../published-assets.js";

interface KnownSolanaCluster {
  chainId: number;
  /** The cluster's genesis hash, which `getGenesisHash` answers on its endpoints. */
  genesisHash: string;
  /** By asset symbol, lower-case: the mint, or "native" for SOL. */
  mints: Record<string, { mint: string; decimals: number }>;
}

const SOL = { mint: "native", decimals: 9 };

export const KNOWN_SOLANA_CLUSTERS: Record<string, KnownSolanaCluster> = {
  solana: {
    chainId: 101,
    genesisHash: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
    mints: {
      sol: SOL,
      usdc: { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", decimals: 6 },
      cbbtc: { mint: "cbbtcf3aa214zXHbiAZQwf4122FBYbraNdFqgw4iMij", decimals: 8 },
    },
  },
  solana_testnet: {
    chainId: 103,
    genesisHash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
    mints: {
      sol: SOL,
      usdc: { mint: "5JbWjyLdYKTuykpq2itWbdRcZkhK3hs6fiH62pkmLYZi", decimals: 6 },
      cbbtc: { mint: "CL8C4gsaEQyWPxL4Zn7dcnZ8LKvPYqHmv4ipMax4cDUL", decimals: 8 },
    },
  },
};

/** Problems of a chain named like a known cluster: its chain id, and each known asset's mint and decimals. */
export function knownClusterProblems(
  chain: { name: string; chainId: number; assets: readonly AssetConfig[] },
  report: (key: string, message: string) => void,
): void {
  const known = KNOWN_SOLANA_CLUSTERS[chain.name];
  if (known === undefined) return;
  if (chain.chainId !== known.chainId)
    report("chainId", `${chain.chainId} is not ${chain.name}'s chain id ${known.chainId}`);
  publishedAssetProblems(
    chain.assets,
    known.mints,
    (mint) => [{ key: "tokenAddress", value: mint.mint, what: "mint" }],
    report,
  );
}
