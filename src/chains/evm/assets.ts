import { getAddress, isAddress, type Address } from "viem";
import type { AssetConfig } from "../../config/types.js";
import { NATIVE_TOKEN_ADDRESS } from "./htlc-abi.js";
import type { EvmChainConfig } from "./config.js";

/** An EVM asset resolved from config: which HTLC holds it and which token (if any) moves. */
export interface EvmAsset {
  id: string;
  htlc: Address;
  /** ERC20 contract; null for the chain's native coin (served by the NativeHTLC). */
  token: Address | null;
  config: AssetConfig;
}

export class UnknownEvmAssetError extends Error {
  constructor(asset: string, chain: string) {
    super(`asset ${asset} is not configured on EVM chain ${chain}`);
    this.name = "UnknownEvmAssetError";
  }
}

export function isNativeToken(tokenAddress: string): boolean {
  return tokenAddress === "native" || tokenAddress.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase();
}

/** The chain's own coin among its configured assets. */
export function evmCoin(assets: readonly AssetConfig[]): AssetConfig | undefined {
  return assets.find((asset) => isNativeToken(asset.tokenAddress));
}

function checkedAddress(value: string, what: string, asset: string): Address {
  if (!isAddress(value, { strict: false })) {
    throw new Error(`${what} of asset ${asset} is not an EVM address: "${value}"`);
  }
  return getAddress(value);
}

/** Resolves `<chain>:<symbol>` (or the bare symbol) to its HTLC and token on this chain. */
export function resolveEvmAsset(config: EvmChainConfig, asset: string): EvmAsset {
  const found = config.assets.find((a) => a.id === asset || `${config.name}:${a.symbol}` === asset);
  if (found === undefined) throw new UnknownEvmAssetError(asset, config.name);
  return {
    id: found.id,
    htlc: checkedAddress(found.htlcAddress, "htlcAddress", found.id),
    token: isNativeToken(found.tokenAddress)
      ? null
      : checkedAddress(found.tokenAddress, "tokenAddress", found.id),
    config: found,
  };
}
