/**
 * Sui networks of the live service, by the chain name the service gives them: the AtomicSwap package
 * (catalogfi/garden.js v2.5.3, packages/core/src/lib/constants.ts `SUI_CONFIG`) and each asset's coin
 * type, registry and decimals (packages/orderbook/src/lib/constants.ts `sui_testnet_SUI`, `sui_SUI`);
 * docs/live-networks.md cites each entry. A profile chain of one of these names is checked against it
 * offline: a wrong id is a valid address and would pass.
 */
import type { AssetConfig } from "../../config/common-chain.js";
import { publishedAssetProblems } from "../published-assets.js";
import { SUI_COIN_TYPE, suiAddress } from "./address.js";

interface KnownSuiNetwork {
  packageId: string;
  /** By asset symbol, lower-case. */
  assets: Record<string, { coinType: string; registry: string; decimals: number }>;
}

export const KNOWN_SUI_NETWORKS: Record<string, KnownSuiNetwork> = {
  sui: {
    packageId: suiAddress("0xbfb5728aab0dd117747ef4574af6d3540ea6093109c22856e3ae201dfd58c0fc", "package"),
    assets: {
      sui: {
        coinType: SUI_COIN_TYPE,
        registry: suiAddress(
          "0xa4f4e653547e98d4b541378e14db2393a09aff4b829f158b133d2eb3c3a942b5",
          "registry",
        ),
        decimals: 9,
      },
    },
  },
  sui_testnet: {
    packageId: suiAddress("0x99865b03dd1bc03d0a6a805c454ea257c464f7abcccae9cd4b621b91e7ca04de", "package"),
    assets: {
      sui: {
        coinType: SUI_COIN_TYPE,
        registry: suiAddress(
          "0x5c438715b7dcc02d12ab92449153a1e5ade2301620d5bf60aa748f006726d369",
          "registry",
        ),
        decimals: 9,
      },
    },
  },
};

/** Problems of a chain named like a known network: its package, and each known asset's coin, registry and decimals. */
export function knownSuiProblems(
  chain: { name: string; packageId: string; assets: readonly AssetConfig[] },
  report: (key: string, message: string) => void,
): void {
  const known = KNOWN_SUI_NETWORKS[chain.name];
  if (known === undefined) return;
  if (chain.packageId !== known.packageId)
    report("packageId", `"${chain.packageId}" is not ${chain.name}'s published package ${known.packageId}`);
  publishedAssetProblems(
    chain.assets,
    known.assets,
    (asset) => [
      { key: "tokenAddress", value: asset.coinType, what: "coin type" },
      { key: "htlcAddress", value: asset.registry, what: "registry" },
    ],
    report,
  );
}
