/**
 * A profile's assets checked against what a live network publishes of them. A wrong address is still a
 * well-formed one and would pass every other check, so a chain named like a known network must match it.
 */
import type { AssetConfig } from "../config/common-chain.js";

/** A published address an asset's config key must hold, and what the network calls it (token, HTLC, mint). */
export interface PublishedAddress {
  key: "tokenAddress" | "htlcAddress";
  value: string;
  what: string;
}

/**
 * Reports each asset whose decimals or addresses differ from the published ones of its symbol (lower-case
 * keys of `published`); assets the network does not publish are left alone.
 */
export function publishedAssetProblems<Published extends { decimals: number }>(
  assets: readonly AssetConfig[],
  published: Readonly<Record<string, Published>>,
  addressesOf: (asset: Published) => readonly PublishedAddress[],
  report: (key: string, message: string) => void,
): void {
  assets.forEach((asset, index) => {
    const expected = published[asset.symbol.toLowerCase()];
    if (expected === undefined) return;
    const at = `assets[${index}]`;
    if (asset.decimals !== expected.decimals)
      report(`${at}.decimals`, `${asset.decimals} differs from ${asset.id}'s ${expected.decimals}`);
    for (const { key, value, what } of addressesOf(expected)) {
      if (asset[key] !== value)
        report(`${at}.${key}`, `"${asset[key]}" is not ${asset.id}'s published ${what} ${value}`);
    }
  });
}
