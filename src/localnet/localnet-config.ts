import type { BitcoinChainConfig, EvmChainConfig, PricingStrategy, SolverConfig } from "../config/types.js";
import type { LocalServiceBitcoinChainConfig, LocalServiceConfig } from "./service/config.js";
import { LOCALNET_BITCOIN_TIMING } from "./bitcoin-setup.js";
import type { DeployedAsset } from "./evm-setup.js";

export interface LocalEvmChainPlan {
  name: string;
  chainId: number;
  rpcUrl: string;
  assets: DeployedAsset[];
}

export interface LocalBitcoinChainPlan {
  name: string;
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

/** USD per whole unit: the localnet's fixed prices, shared by the service's display and the solver's quotes. */
export const LOCALNET_PRICES: Record<string, string> = {
  usdc: "1",
  wbtc: "60000",
  eth: "3000",
  btc: "60000",
};

/** The Bitcoin asset, in the shape the EVM assets have for pricing. */
const BTC_ASSET = { symbol: "btc", name: "Bitcoin (regtest)", decimals: 8 };

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

function strategies(chains: LocalEvmChainPlan[], bitcoin: LocalBitcoinChainPlan): PricingStrategy[] {
  const all: { chain: string; asset: { symbol: string; decimals: number } }[] = [
    ...chains.flatMap((c) => c.assets.map((a) => ({ chain: c.name, asset: a }))),
    { chain: bitcoin.name, asset: BTC_ASSET },
  ];
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
  bitcoin: LocalBitcoinChainPlan;
  serviceUrl: string;
  appId: string;
  solverId: string;
  evmKey: string;
  bitcoinKey: string;
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
    maxHeadLagBlocks: 3,
    rpcTimeoutMs: 15_000,
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
  fixedPrices[assetId(options.bitcoin.name, BTC_ASSET.symbol)] = LOCALNET_PRICES.btc ?? "60000";
  return {
    service: { url: options.serviceUrl, appId: options.appId },
    solver: {
      id: options.solverId,
      pollIntervalMs: 500,
      keys: { evm: options.evmKey, bitcoin: options.bitcoinKey },
    },
    chains: [...chains, solverBitcoinChain(options.bitcoin)],
    fixedPrices,
    strategies: strategies(options.chains, options.bitcoin),
    limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
    safety: {
      timelockMarginMs: 600_000,
      redeemDeadlineMarginMs: 600_000,
      priceToleranceBps: 0,
      allowUnenforcedSecretLength: false,
    },
    journal: { path: options.journalPath },
    ops: { host: "127.0.0.1", port: options.opsPort },
    quote: { host: "127.0.0.1", port: options.quotePort },
    log: { level: "info" },
  };
}

/** The solver's view of the localnet's Bitcoin chain: its own node, 1 s blocks, 1-100 sat/vB. */
function solverBitcoinChain(bitcoin: LocalBitcoinChainPlan): BitcoinChainConfig {
  return {
    family: "bitcoin",
    name: bitcoin.name,
    network: "regtest",
    backend: "bitcoind",
    rpcUrls: [bitcoin.rpcUrl],
    rpcUser: bitcoin.rpcUser,
    rpcPassword: bitcoin.rpcPassword,
    esploraUrls: [],
    maxHeadLagBlocks: 1,
    rpcTimeoutMs: 30_000,
    minBlockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    maxBlockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    minConfirmations: LOCALNET_BITCOIN_TIMING.requiredConfirmations,
    fillTimelockBlocks: bitcoin.destinationTimelock,
    bumpAfterMs: 15_000,
    feeRateFloorSatVb: 1,
    feeRateCeilingSatVb: 100,
    maxBatch: 50,
    assets: [
      {
        id: assetId(bitcoin.name, BTC_ASSET.symbol),
        chain: bitcoin.name,
        symbol: BTC_ASSET.symbol,
        decimals: BTC_ASSET.decimals,
        tokenAddress: "primary",
        htlcAddress: "",
      },
    ],
  };
}

function serviceBitcoinChain(bitcoin: LocalBitcoinChainPlan): LocalServiceBitcoinChainConfig {
  return {
    name: bitcoin.name,
    family: "bitcoin",
    network: "regtest",
    rpcUrl: bitcoin.rpcUrl,
    rpcUser: bitcoin.rpcUser,
    rpcPassword: bitcoin.rpcPassword,
    requiredConfirmations: LOCALNET_BITCOIN_TIMING.requiredConfirmations,
    sourceTimelock: bitcoin.sourceTimelock,
    destinationTimelock: bitcoin.destinationTimelock,
    blockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    explorerUrl: "",
    assets: [
      {
        ...BTC_ASSET,
        priceUsd: LOCALNET_PRICES.btc ?? "60000",
        // Below a few hundred sats an output is dust.
        minAmount: "1000",
        maxAmount: (10n ** BigInt(BTC_ASSET.decimals + 6)).toString(),
      },
    ],
  };
}

export function localnetServiceConfig(options: {
  chains: LocalEvmChainPlan[];
  bitcoin: LocalBitcoinChainPlan;
  port: number;
  dbPath: string;
  appId: string;
  relayerKey: string;
  solver: { id: string; quoteUrl: string; evmAddress: string; bitcoinKey: string };
  sourceTimelock?: number;
}): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: options.port,
    dbPath: options.dbPath,
    appIds: [options.appId],
    relayerPrivateKey: options.relayerKey,
    pollIntervalMs: 500,
    chains: [
      ...options.chains.map((chain) => ({
        name: chain.name,
        family: "evm" as const,
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
      serviceBitcoinChain(options.bitcoin),
    ],
    solvers: [
      {
        id: options.solver.id,
        quoteUrl: options.solver.quoteUrl,
        addresses: { evm: options.solver.evmAddress, bitcoin: options.solver.bitcoinKey },
      },
    ],
  };
}
