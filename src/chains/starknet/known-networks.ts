/**
 * Starknet networks of the live service, by the chain name the service gives them: the chain id and
 * the token and HTLC of each asset the SDK publishes (catalogfi/garden.js v2.5.3,
 * packages/orderbook/src/lib/constants.ts; docs/live-networks.md cites each entry). A profile chain of
 * one of these names is checked against it offline: a wrong address is a valid felt and would pass.
 */
import type { AssetConfig } from "../../config/common-chain.js";
import { publishedAssetProblems } from "../published-assets.js";
import { normalizeAddress } from "./felt.js";

interface KnownStarknetNetwork {
  chainId: string;
  /** By asset symbol, lower-case. */
  assets: Record<string, { token: string; htlc: string; decimals: number }>;
}

export const KNOWN_STARKNET_NETWORKS: Record<string, KnownStarknetNetwork> = {
  starknet: {
    chainId: "SN_MAIN",
    assets: {
      wbtc: {
        token: normalizeAddress("0x3fe2b97c1fd336e750087d68b9b867997fd64a2661ff3ca5a7c771641e8e7ac", "token"),
        htlc: normalizeAddress("0x7defd8eb3b770005ab1ca5f89ad31f98fb5bc3c52deaeafd130be3b49f967b4", "HTLC"),
        decimals: 8,
      },
    },
  },
  starknet_sepolia: {
    chainId: "SN_SEPOLIA",
    assets: {
      wbtc: {
        token: normalizeAddress("0x496bef3ed20371382fbe0ca6a5a64252c5c848f9f1f0cccf8110fc4def912d5", "token"),
        htlc: normalizeAddress("0x06579d255314109429a4477d89629bc2b94f529ae01979c2f8014f9246482603", "HTLC"),
        decimals: 8,
      },
    },
  },
};

/** Problems of a chain named like a known network: its chain id, and each known asset's addresses and decimals. */
export function knownStarknetProblems(
  chain: { name: string; chainId: string; assets: readonly AssetConfig[] },
  report: (key: string, message: string) => void,
): void {
  const known = KNOWN_STARKNET_NETWORKS[chain.name];
  if (known === undefined) return;
  if (chain.chainId !== known.chainId)
    report("chainId", `"${chain.chainId}" is not ${chain.name}'s chain id ${known.chainId}`);
  publishedAssetProblems(
    chain.assets,
    known.assets,
    (asset) => [
      { key: "tokenAddress", value: asset.token, what: "token" },
      { key: "htlcAddress", value: asset.htlc, what: "HTLC" },
    ],
    report,
  );
}
