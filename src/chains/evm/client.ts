import { createPublicClient, defineChain, fallback, http, type Chain, type PublicClient } from "viem";
import type { EvmChainConfig } from "../../config/types.js";

/** A viem chain description, so clients and signatures agree on the chain id. */
export function evmChain(chainId: number, name: string, rpcUrls: string[]): Chain {
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: rpcUrls } },
  });
}

export function evmChainDefinition(config: EvmChainConfig): Chain {
  return evmChain(config.chainId, config.name, config.rpcUrls);
}

/** A public client over every configured RPC URL; viem's fallback moves on when one fails. */
export function createEvmPublicClient(config: EvmChainConfig): PublicClient {
  if (config.rpcUrls.length === 0) throw new Error(`EVM chain ${config.name} has no rpcUrls configured`);
  const transports = config.rpcUrls.map((url) => http(url, { retryCount: 2, timeout: 15_000 }));
  const transport =
    transports.length === 1 && transports[0] !== undefined ? transports[0] : fallback(transports);
  return createPublicClient({ chain: evmChainDefinition(config), transport, pollingInterval: 1_000 });
}

/** Hex of the API and of HtlcParams carries no 0x; viem wants it. */
export function with0x(hex: string): `0x${string}` {
  return (hex.startsWith("0x") ? hex : `0x${hex}`) as `0x${string}`;
}

export function strip0x(hex: string): string {
  return hex.startsWith("0x") ? hex.slice(2) : hex;
}
