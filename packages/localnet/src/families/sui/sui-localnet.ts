/** The localnet's Sui chain, and its part of the solver's and the service's config and the descriptor. */
import type { SuiChainConfig } from "htlc-solver/chains/sui/config.js";
import { SUI_COIN_TYPE } from "htlc-solver/chains/sui/address.js";
import { assetId, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalnetStartContext, StartedLocalChains } from "../local-chain-family.js";
import {
  suiAssets,
  suiChainDescriptor,
  type LocalnetSuiDescriptor,
  type LocalnetSuiSolverDescriptor,
  type LocalnetSuiUserDescriptor,
  type LocalSuiChainPlan,
} from "./sui-descriptor.js";
import type { LocalServiceSuiChainConfig } from "./service/sui-config.js";
import { LOCALNET_SUI_TIMING, setUpSuiChain, type LocalSuiChainSetup } from "./sui-setup.js";

export interface SuiLocalnetOptions {
  /** Milliseconds per Sui checkpoint (default 250); 0 makes checkpoints only on demand. */
  suiCheckpointMs?: number;
  /** Sui destination timelock, for the service and the solver's fills, in ms (default 600000). */
  suiDestinationTimelockMs?: number;
}

export interface SuiLocalnetHandles {
  /** The local Sui chain (in this process: tests make checkpoints and move its clock with `sui.local`). */
  sui: LocalSuiChainSetup;
}

export async function startSuiLocalnet(
  context: LocalnetStartContext,
): Promise<
  StartedLocalChains<
    SuiLocalnetHandles,
    LocalnetSuiDescriptor,
    LocalnetSuiSolverDescriptor,
    LocalnetSuiUserDescriptor
  >
> {
  const { options, logger } = context;
  const sui = await setUpSuiChain({
    userLabels: Array.from({ length: context.userCount }, (_, i) => `user ${i}`),
    ...(options.suiCheckpointMs === undefined ? {} : { checkpointMs: options.suiCheckpointMs }),
    logger,
  });
  logger.info({ chain: sui.name, rpcUrl: sui.rpcUrl }, "local chain ready");
  const plan: LocalSuiChainPlan = {
    name: sui.name,
    rpcUrl: sui.rpcUrl,
    packageId: sui.packageId,
    coinType: SUI_COIN_TYPE,
    registryId: sui.registry.id,
    registryInitialSharedVersion: sui.registry.initialSharedVersion,
    sourceTimelock: LOCALNET_SUI_TIMING.sourceTimelockMs,
    destinationTimelock: options.suiDestinationTimelockMs ?? LOCALNET_SUI_TIMING.destinationTimelockMs,
  };
  return {
    handles: { sui },
    descriptor: { sui: suiChainDescriptor(plan) },
    solverDescriptor: { suiAddress: sui.solver.address },
    userDescriptors: sui.users.map((user) => ({ sui: user })),
    assets: suiAssets(plan).map((asset) => ({ chain: plan.name, asset })),
    feeds: [],
    solverChains: () => [solverSuiChain(plan, sui.solver.address)],
    solverKeys: { sui: sui.solver.privateKey },
    // SUI like SOL: the anvils' SUI / USD feed, deployed from the localnet's price table.
    prices: (pricing) => ({
      [assetId(plan.name, "sui")]: {
        sources: [pricing.feed("sui"), ...pricing.tickers("sui")],
        minSources: 1,
        maxDeviationBps: 0,
        peg: null,
      },
    }),
    serviceChains: () => [serviceSuiChain(plan, sui)],
    solverAddresses: { sui: sui.solver.address },
    stop: () => sui.stop(),
  };
}

/**
 * The solver's view of the localnet's Sui chain. Heights on Sui are the chain's clock in ms
 * (src/chains/sui/config.ts): fills of 10 minutes, a source confirmed once its checkpoint is made.
 */
function solverSuiChain(plan: LocalSuiChainPlan, solverAddress: string): SuiChainConfig {
  return {
    family: "sui",
    name: plan.name,
    rpcUrls: [plan.rpcUrl],
    packageId: plan.packageId,
    solverAddress,
    registryInitialSharedVersions: { sui: BigInt(plan.registryInitialSharedVersion) },
    minBlockTimeMs: 1,
    maxBlockTimeMs: 1,
    minConfirmations: LOCALNET_SUI_TIMING.requiredConfirmations,
    finalityDepth: 1,
    fillTimelockBlocks: plan.destinationTimelock,
    bumpAfterMs: 15_000,
    maxHeadLagBlocks: 40,
    rpcTimeoutMs: 15_000,
    gasBudgetMarginPercent: 20,
    maxGasBudgetMist: 200_000_000n,
    maxGasPriceMist: 5_000n,
    assets: suiAssets(plan).map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      chain: plan.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.coinType,
      htlcAddress: asset.registryId,
    })),
  };
}

/** The service pays its Sui redeems from the relayer account. */
export function serviceSuiChain(
  plan: LocalSuiChainPlan,
  sui: LocalSuiChainSetup,
): LocalServiceSuiChainConfig {
  return {
    name: plan.name,
    family: "sui",
    chainId: plan.name,
    rpcUrl: plan.rpcUrl,
    packageId: plan.packageId,
    relayerAddress: sui.relayer.address,
    relayerPrivateKey: sui.relayer.privateKey,
    requiredConfirmations: LOCALNET_SUI_TIMING.requiredConfirmations,
    sourceTimelock: plan.sourceTimelock,
    destinationTimelock: plan.destinationTimelock,
    blockTimeMs: LOCALNET_SUI_TIMING.checkpointMs,
    explorerUrl: "",
    assets: suiAssets(plan).map((asset) => ({
      ...asset,
      priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
      minAmount: "1",
      maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
    })),
  };
}
