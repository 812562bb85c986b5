import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Address, Hex } from "viem";
import {
  assetId,
  solanaAssets,
  type LocalEvmChainPlan,
  type LocalSolanaChainPlan,
} from "./localnet-config.js";
import type { LocalFeed } from "./price-feeds.js";

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

export interface LocalnetBitcoinChainDescriptor {
  name: string;
  family: "bitcoin";
  network: "regtest";
  /** JSON-RPC of the regtest node (bitcoind's subset), with basic auth. */
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  assets: { id: string; symbol: string; decimals: number }[];
}

export interface LocalnetSolanaAssetDescriptor {
  id: string;
  symbol: string;
  decimals: number;
  /** `native` for SOL, or the SPL mint. */
  tokenAddress: string;
  /** The asset's HTLC program. */
  htlcAddress: string;
}

export interface LocalnetSolanaChainDescriptor {
  name: string;
  family: "solana";
  /** The chain id hashed into Solana swap ids. */
  chainId: number;
  /** JSON-RPC of the local cluster (no WebSocket: confirm by polling getSignatureStatuses). */
  rpcUrl: string;
  nativeProgramId: string;
  splProgramId: string;
  assets: LocalnetSolanaAssetDescriptor[];
}

/** A user's Solana key, from a public label like every localnet key: localnet only. */
export interface LocalnetSolanaUserKey {
  /** The 64-byte secret key, base58. */
  secretKey: string;
  address: string;
}

/** A user's Bitcoin key; like every localnet key, derived from a public label: regtest only. */
export interface LocalnetBitcoinUserKey {
  /** 32-byte private key, hex. */
  privateKey: string;
  /** x-only public key, hex (the key in HTLC scripts). */
  xOnlyKey: string;
  /** Key-path P2TR address holding the user's coinbases. */
  address: string;
}

/** What `solver localnet` writes to `.localnet/localnet.json`: everything a client needs to swap on it. */
export interface LocalnetDescriptor {
  service: { url: string; appId: string };
  solver: {
    id: string;
    quoteUrl: string;
    opsUrl: string;
    evmAddress: Address;
    /** The solver's x-only key in Bitcoin HTLCs, and its wallet's address. */
    bitcoinKey: string;
    bitcoinAddress: string;
    /** The solver's Solana address (funds its fills, is the redeemer of Solana sources). */
    solanaAddress: string;
  };
  /** The EVM chains. */
  chains: LocalnetEvmChainDescriptor[];
  bitcoin: LocalnetBitcoinChainDescriptor;
  solana: LocalnetSolanaChainDescriptor;
  /** Funded test users. Their keys are anvil's public defaults and public labels: localnet only. */
  users: {
    address: Address;
    privateKey: Hex;
    bitcoin: LocalnetBitcoinUserKey;
    solana: LocalnetSolanaUserKey;
  }[];
  /** Where the solver's prices come from: the feeds on the anvil chains and the local exchange tickers. */
  prices: {
    /** Base URL serving Binance's, Coinbase's and Kraken's ticker paths. */
    tickerUrl: string;
    feeds: LocalFeed[];
  };
}

export function writeDescriptor(path: string, descriptor: LocalnetDescriptor): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(descriptor, null, 2)}\n`);
}

export function evmChainDescriptor(plan: LocalEvmChainPlan): LocalnetEvmChainDescriptor {
  const tokens = plan.assets.filter((a) => a.tokenAddress !== "native");
  return {
    name: plan.name,
    family: "evm",
    chainId: plan.chainId,
    rpcUrl: plan.rpcUrl,
    htlc: Object.fromEntries(tokens.map((a) => [a.symbol, a.htlcAddress])),
    nativeHtlc: plan.assets.find((a) => a.tokenAddress === "native")?.htlcAddress ?? "0x",
    tokens: Object.fromEntries(tokens.map((a) => [a.symbol, a.tokenAddress as Address])),
    assets: plan.assets.map((a) => ({
      id: assetId(plan.name, a.symbol),
      symbol: a.symbol,
      decimals: a.decimals,
      tokenAddress: a.tokenAddress,
      htlcAddress: a.htlcAddress,
    })),
  };
}

export function solanaChainDescriptor(plan: LocalSolanaChainPlan): LocalnetSolanaChainDescriptor {
  return {
    name: plan.name,
    family: "solana",
    chainId: plan.chainId,
    rpcUrl: plan.rpcUrl,
    nativeProgramId: plan.nativeProgramId,
    splProgramId: plan.splProgramId,
    assets: solanaAssets(plan).map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.tokenAddress === "native" ? plan.nativeProgramId : plan.splProgramId,
    })),
  };
}
