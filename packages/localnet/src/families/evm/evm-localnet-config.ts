/** The EVM chains' part of the solver's and the service's config on the localnet. */
import type { AssetPriceConfig } from "htlc-solver/config/types.js";
import type { EvmChainConfig } from "htlc-solver/chains/evm/config.js";
import { assetId, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalPricingContext } from "../local-chain-family.js";
import type { LocalEvmChainPlan } from "./evm-descriptor.js";
import type { LocalServiceEvmChainConfig } from "./service/evm-config.js";

/** Localnet chain timing: anvil mines one block a second. */
export const LOCALNET_TIMING = {
  blockTimeMs: 1000,
  sourceTimelock: 7200,
  destinationTimelock: 600,
  requiredConfirmations: 1,
  /** The solver follows its transactions three blocks deep: a reorg test has room below that. */
  finalityDepth: 3,
};

export function solverEvmChain(chain: LocalEvmChainPlan): EvmChainConfig {
  return {
    family: "evm",
    name: chain.name,
    chainId: chain.chainId,
    rpcUrls: [chain.rpcUrl],
    minBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    maxBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    minConfirmations: LOCALNET_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_TIMING.finalityDepth,
    fillTimelockBlocks: LOCALNET_TIMING.destinationTimelock,
    bumpAfterMs: 15_000,
    maxFeePerGasWei: 500_000_000_000n,
    maxHeadLagBlocks: 3,
    rpcTimeoutMs: 15_000,
    maxBatch: 50,
    ...(chain.batchExecutor === undefined
      ? {}
      : { batchFills: "eip7702" as const, batchExecutor: chain.batchExecutor }),
    assets: chain.assets.map((asset) => ({
      id: assetId(chain.name, asset.symbol),
      chain: chain.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
    })),
  };
}

export function serviceEvmChain(
  chain: LocalEvmChainPlan,
  sourceTimelock?: number,
): LocalServiceEvmChainConfig {
  return {
    name: chain.name,
    family: "evm",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    requiredConfirmations: LOCALNET_TIMING.requiredConfirmations,
    sourceTimelock: sourceTimelock ?? LOCALNET_TIMING.sourceTimelock,
    destinationTimelock: LOCALNET_TIMING.destinationTimelock,
    blockTimeMs: LOCALNET_TIMING.blockTimeMs,
    explorerUrl: "",
    assets: chain.assets.map((asset) => ({
      symbol: asset.symbol,
      name: asset.name,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
      priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
      minAmount: "1",
      maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
    })),
  };
}

/**
 * Each asset's own feed on its chain and the exchanges' tickers; wrapped BTC behind a de-peg guard on its
 * own feed, USDC pegged to the dollar behind its feed and ticker.
 */
export function evmPrices(
  chains: readonly LocalEvmChainPlan[],
  pricing: LocalPricingContext,
): Record<string, AssetPriceConfig> {
  const assets: Record<string, AssetPriceConfig> = {};
  for (const chain of chains) {
    for (const asset of chain.assets) {
      const id = assetId(chain.name, asset.symbol);
      const own = [pricing.feed(asset.symbol, chain.name), ...pricing.tickers(asset.symbol)];
      if (asset.symbol === "wbtc") {
        assets[id] = {
          sources: own,
          minSources: 1,
          maxDeviationBps: 0,
          peg: { base: pricing.assetIdOf("btc"), maxDeviationBps: 200, quotedIn: "usd" },
        };
      } else if (asset.symbol === "usdc") {
        assets[id] = {
          sources: own,
          minSources: 1,
          maxDeviationBps: 100,
          peg: { base: "usd", maxDeviationBps: 100, quotedIn: "usd" },
        };
      } else {
        assets[id] = { sources: own, minSources: 3, maxDeviationBps: 100, peg: null };
      }
    }
  }
  return assets;
}
