/** The Sui chain's part of `localnet.json` (README, "Local system"). */
import { assetId } from "../../localnet-config.js";

export interface LocalnetSuiAssetDescriptor {
  id: string;
  symbol: string;
  decimals: number;
  /** The Move coin type, in full. */
  coinType: string;
  /** The asset's `OrdersRegistry<CoinType>` shared object, and the version it was shared at. */
  registryId: string;
  registryInitialSharedVersion: string;
}

export interface LocalnetSuiChainDescriptor {
  name: string;
  family: "sui";
  /** JSON-RPC of the local chain (Sui's full-node methods). */
  rpcUrl: string;
  /** The `AtomicSwap` package's local id. */
  packageId: string;
  assets: LocalnetSuiAssetDescriptor[];
}

/** A Sui account's key and address, from a public label like every localnet key: localnet only. */
export interface LocalnetSuiAccount {
  /** Ed25519 key, `suiprivkey…`. */
  privateKey: string;
  address: string;
}

export interface LocalnetSuiDescriptor {
  sui: LocalnetSuiChainDescriptor;
}

export interface LocalnetSuiSolverDescriptor {
  /** The solver's account (funds its Sui fills, is the redeemer of Sui sources). */
  suiAddress: string;
}

export interface LocalnetSuiUserDescriptor {
  sui: LocalnetSuiAccount;
}

export interface LocalSuiChainPlan {
  name: string;
  rpcUrl: string;
  packageId: string;
  coinType: string;
  registryId: string;
  registryInitialSharedVersion: string;
  /** Milliseconds. */
  sourceTimelock: number;
  /** Milliseconds; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

/** The Sui assets the localnet swaps: SUI in its registry. */
export function suiAssets(plan: LocalSuiChainPlan) {
  return [
    {
      symbol: "sui",
      name: "Sui (localnet)",
      decimals: 9,
      coinType: plan.coinType,
      registryId: plan.registryId,
      registryInitialSharedVersion: plan.registryInitialSharedVersion,
    },
  ];
}

export function suiChainDescriptor(plan: LocalSuiChainPlan): LocalnetSuiChainDescriptor {
  return {
    name: plan.name,
    family: "sui",
    rpcUrl: plan.rpcUrl,
    packageId: plan.packageId,
    assets: suiAssets(plan).map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      symbol: asset.symbol,
      decimals: asset.decimals,
      coinType: asset.coinType,
      registryId: asset.registryId,
      registryInitialSharedVersion: asset.registryInitialSharedVersion,
    })),
  };
}
