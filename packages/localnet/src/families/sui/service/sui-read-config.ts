/**
 * The solver family's view of the service's Sui chain, for its node reads (`SuiRpc`: the endpoint pool and
 * shape checks) and its order reads (`SuiReader.storedOrder`): the service reads a registry field and a
 * transaction exactly as the solver does. Only the reading settings matter here; the rest are the
 * family's defaults, for a reader that never sends.
 */
import type { SuiChainConfig } from "htlc-solver/chains/sui/config.js";
import type { LocalServiceSuiChainConfig } from "./sui-config.js";

export function suiReadConfig(config: LocalServiceSuiChainConfig): SuiChainConfig {
  return {
    family: "sui",
    name: config.name,
    rpcUrls: [config.rpcUrl],
    packageId: config.packageId,
    solverAddress: "",
    registryInitialSharedVersions: Object.fromEntries(
      config.assets.map((asset) => [asset.symbol.toLowerCase(), BigInt(asset.registryInitialSharedVersion)]),
    ),
    // Heights on Sui are the chain's clock, in ms (src/chains/sui/config.ts).
    minBlockTimeMs: 1,
    maxBlockTimeMs: 1,
    minConfirmations: config.requiredConfirmations,
    finalityDepth: config.requiredConfirmations,
    fillTimelockBlocks: config.destinationTimelock,
    bumpAfterMs: 30_000,
    maxHeadLagBlocks: 40,
    rpcTimeoutMs: 10_000,
    gasBudgetMarginPercent: 20,
    maxGasBudgetMist: 200_000_000n,
    maxGasPriceMist: 5_000n,
    assets: config.assets.map((asset) => ({
      id: `${config.name}:${asset.symbol}`,
      chain: config.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.coinType,
      htlcAddress: asset.registryId,
    })),
  };
}
