/** The Starknet chain's part of `localnet.json` (README, "Local system"). */
import type { OrderIdLayout } from "htlc-solver/chains/starknet/order-id.js";
import { assetId } from "../../localnet-config.js";

export interface LocalnetStarknetAssetDescriptor {
  id: string;
  symbol: string;
  decimals: number;
  /** The ERC20. */
  tokenAddress: string;
  /** The asset's HTLC contract. */
  htlcAddress: string;
}

export interface LocalnetStarknetChainDescriptor {
  name: string;
  family: "starknet";
  /** The chain id short string hashed into order ids and signed in SNIP-12 domains. */
  chainId: string;
  /** JSON-RPC (Starknet spec 0.9) of the local chain. */
  rpcUrl: string;
  /** How the HTLCs compute order ids (the deployed contract's, or the audited one's). */
  orderIdLayout: OrderIdLayout;
  /** The STRK fee token. */
  feeTokenAddress: string;
  assets: LocalnetStarknetAssetDescriptor[];
}

/** A Starknet account's key and address, from a public label like every localnet key: localnet only. */
export interface LocalnetStarknetAccount {
  /** Stark private key, `0x` and 64 hex. */
  privateKey: string;
  address: string;
}

export interface LocalnetStarknetDescriptor {
  starknet: LocalnetStarknetChainDescriptor;
}

export interface LocalnetStarknetSolverDescriptor {
  /** The solver's account (funds its Starknet fills, is the redeemer of Starknet sources). */
  starknetAddress: string;
}

export interface LocalnetStarknetUserDescriptor {
  starknet: LocalnetStarknetAccount;
}

export interface LocalStarknetChainPlan {
  name: string;
  chainId: string;
  rpcUrl: string;
  orderIdLayout: OrderIdLayout;
  feeTokenAddress: string;
  wbtc: string;
  /** The WBTC HTLC of the plan's layout. */
  htlc: string;
  /** The STRK HTLC of the plan's layout. */
  strkHtlc: string;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

/** The Starknet assets the localnet swaps: a WBTC-like ERC20 in its HTLC (STRK pays fees only). */
export function starknetAssets(plan: LocalStarknetChainPlan) {
  return [
    {
      symbol: "wbtc",
      name: "Wrapped BTC (localnet Starknet)",
      decimals: 8,
      tokenAddress: plan.wbtc,
      htlcAddress: plan.htlc,
    },
  ];
}

export function starknetChainDescriptor(plan: LocalStarknetChainPlan): LocalnetStarknetChainDescriptor {
  return {
    name: plan.name,
    family: "starknet",
    chainId: plan.chainId,
    rpcUrl: plan.rpcUrl,
    orderIdLayout: plan.orderIdLayout,
    feeTokenAddress: plan.feeTokenAddress,
    assets: starknetAssets(plan).map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
    })),
  };
}
