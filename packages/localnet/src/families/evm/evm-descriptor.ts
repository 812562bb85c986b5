/** The EVM chains' part of `localnet.json` (README, "Local system"). */
import type { Address, Hex } from "viem";
import { assetId } from "../../localnet-config.js";
import type { DeployedAsset } from "./evm-setup.js";

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

export interface LocalnetEvmDescriptor {
  /** The EVM chains. */
  chains: LocalnetEvmChainDescriptor[];
}

export interface LocalnetEvmSolverDescriptor {
  evmAddress: Address;
}

/** A user's EVM account; anvil's public default keys: localnet only. */
export interface LocalnetEvmUserDescriptor {
  address: Address;
  privateKey: Hex;
}

export interface LocalEvmChainPlan {
  name: string;
  chainId: number;
  rpcUrl: string;
  assets: DeployedAsset[];
  /** The BatchExecutor the solver's account delegates to, so that its fills batch; absent: fills go alone. */
  batchExecutor?: string;
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
