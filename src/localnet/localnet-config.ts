import type { EvmChainConfig, PricingStrategy, SolverConfig } from "../config/types.js";
import type { LocalServiceConfig } from "./service/config.js";
import type { DeployedAsset } from "./evm-setup.js";

export interface LocalEvmChainPlan {
  name: string;
  chainId: number;
  rpcUrl: string;
  assets: DeployedAsset[];
}

/** USD per whole unit: the localnet's fixed prices, shared by the service's display and the solver's quotes. */
export const LOCALNET_PRICES: Record<string, string> = { usdc: "1", wbtc: "60000", eth: "3000" };

/** Localnet chain timing: anvil mines one block a second. */
export const LOCALNET_TIMING = {
  blockTimeMs: 1000,
  sourceTimelock: 7200,
  destinationTimelock: 600,
  requiredConfirmations: 1,
};

export function assetId(chain: string, symbol: string): string {
  return `${chain}:${symbol}`;
}

function strategies(chains: LocalEvmChainPlan[]): PricingStrategy[] {
  const all = chains.flatMap((c) => c.assets.map((a) => ({ chain: c.name, asset: a })));
  const result: PricingStrategy[] = [];
  for (const from of all) {
    for (const to of all) {
      if (from.chain === to.chain) continue;
      result.push({
        from: assetId(from.chain, from.asset.symbol),
        to: assetId(to.chain, to.asset.symbol),
        minAmount: 1n,
        maxAmount: 10n ** BigInt(from.asset.decimals + 6),
        feeBps: 30,
        fixedFee: 0n,
        spreadBps: 0,
        priceSource: "fixed",
        estimatedTimeSeconds: 30,
      });
    }
  }
  return result;
}

/** The solver's config on the localnet; every amount limit generous, every safety rule on. */
export function localnetSolverConfig(options: {
  chains: LocalEvmChainPlan[];
  serviceUrl: string;
  appId: string;
  solverId: string;
  evmKey: string;
  journalPath: string;
  quotePort: number;
  opsPort: number;
}): SolverConfig {
  const chains: EvmChainConfig[] = options.chains.map((chain) => ({
    family: "evm",
    name: chain.name,
    chainId: chain.chainId,
    rpcUrls: [chain.rpcUrl],
    minBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    maxBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    minConfirmations: LOCALNET_TIMING.requiredConfirmations,
    fillTimelockBlocks: LOCALNET_TIMING.destinationTimelock,
    bumpAfterMs: 15_000,
    maxFeePerGasWei: 500_000_000_000n,
    assets: chain.assets.map((asset) => ({
      id: assetId(chain.name, asset.symbol),
      chain: chain.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
    })),
  }));
  const fixedPrices: Record<string, string> = {};
  for (const chain of options.chains) {
    for (const asset of chain.assets)
      fixedPrices[assetId(chain.name, asset.symbol)] = LOCALNET_PRICES[asset.symbol] ?? "1";
  }
  return {
    service: { url: options.serviceUrl, appId: options.appId },
    solver: {
      id: options.solverId,
      pollIntervalMs: 500,
      keys: { evm: options.evmKey, bitcoin: "" },
    },
    chains,
    fixedPrices,
    strategies: strategies(options.chains),
    limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
    safety: { timelockMarginMs: 600_000, redeemDeadlineMarginMs: 600_000, priceToleranceBps: 0 },
    journal: { path: options.journalPath },
    ops: { host: "127.0.0.1", port: options.opsPort },
    quote: { host: "127.0.0.1", port: options.quotePort },
    log: { level: "info" },
  };
}

export function localnetServiceConfig(options: {
  chains: LocalEvmChainPlan[];
  port: number;
  dbPath: string;
  appId: string;
  relayerKey: string;
  solver: { id: string; quoteUrl: string; evmAddress: string };
  sourceTimelock?: number;
}): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: options.port,
    dbPath: options.dbPath,
    appIds: [options.appId],
    relayerPrivateKey: options.relayerKey,
    pollIntervalMs: 500,
    chains: options.chains.map((chain) => ({
      name: chain.name,
      family: "evm",
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      requiredConfirmations: LOCALNET_TIMING.requiredConfirmations,
      sourceTimelock: options.sourceTimelock ?? LOCALNET_TIMING.sourceTimelock,
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
    })),
    solvers: [
      {
        id: options.solver.id,
        quoteUrl: options.solver.quoteUrl,
        addresses: { evm: options.solver.evmAddress },
      },
    ],
  };
}
