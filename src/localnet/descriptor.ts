import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Address, Hex } from "viem";

export interface LocalnetAssetDescriptor {
  /** `<chain>:<symbol>` as the API names it. */
  id: string;
  symbol: string;
  decimals: number;
  /** ERC20 address, or `native`. */
  tokenAddress: string;
  htlcAddress: Address;
}

export interface LocalnetEvmChainDescriptor {
  name: string;
  family: "evm";
  chainId: number;
  rpcUrl: string;
  /** ERC20 HTLC per token symbol. */
  htlc: Record<string, Address>;
  nativeHtlc: Address;
  /** Token address per symbol. */
  tokens: Record<string, Address>;
  assets: LocalnetAssetDescriptor[];
}

/** What `solver localnet` writes to `.localnet/localnet.json`: everything a client needs to swap on it. */
export interface LocalnetDescriptor {
  service: { url: string; appId: string };
  solver: { id: string; quoteUrl: string; opsUrl: string; evmAddress: Address };
  chains: LocalnetEvmChainDescriptor[];
  /** Funded test users. Their keys are anvil's public defaults: localnet only. */
  users: { address: Address; privateKey: Hex }[];
}

export function writeDescriptor(path: string, descriptor: LocalnetDescriptor): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(descriptor, null, 2)}\n`);
}
