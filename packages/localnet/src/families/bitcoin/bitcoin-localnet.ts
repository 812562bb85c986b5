/** The localnet's Bitcoin chain, and its part of the solver's and the service's config and the descriptor. */
import type { BitcoinChainConfig } from "htlc-solver/chains/bitcoin/config.js";
import { assetId, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalnetStartContext, StartedLocalChains } from "../local-chain-family.js";
import {
  LOCALNET_BITCOIN_CHAIN,
  LOCALNET_BITCOIN_TIMING,
  localnetBitcoinKey,
  setUpBitcoinChain,
  type LocalBitcoinChain,
} from "./bitcoin-setup.js";
import type {
  LocalnetBitcoinDescriptor,
  LocalnetBitcoinSolverDescriptor,
  LocalnetBitcoinUserDescriptor,
} from "./bitcoin-descriptor.js";
import type { RegtestEndpoint, StartBitcoinRegtestOptions } from "./chain/index.js";
import type { LocalServiceBitcoinChainConfig } from "./service/bitcoin-config.js";

export interface BitcoinLocalnetOptions {
  /** Source timelock the service gives Bitcoin orders, in blocks (default 2880). */
  bitcoinSourceTimelock?: number;
  /** Bitcoin destination timelock, for the service and the solver's fills, in blocks (default 144). */
  bitcoinDestinationTimelock?: number;
  /** The Bitcoin miner mines one block per this many ms (default 1000); 0 mines only on demand. */
  bitcoinBlockTimeMs?: number;
  /**
   * The regtest node's -blockmintxfee, sat/vB (default 1). Above 1, a transaction paying the minimum relay
   * fee stays in the mempool and is never mined: what an attacker's low-fee, evictable payment looks like.
   */
  bitcoinBlockMinFeeRateSatVb?: number;
  /** Starts the Bitcoin regtest node; the default runs it in this process (the load benchmark: its own). */
  startBitcoinNode?: (options: StartBitcoinRegtestOptions) => Promise<RegtestEndpoint>;
}

export interface BitcoinLocalnetHandles {
  bitcoin: LocalBitcoinChain;
}

/** The Bitcoin asset, in the shape the EVM assets have for pricing. */
const BTC_ASSET = { symbol: "btc", name: "Bitcoin (regtest)", decimals: 8 };

interface BitcoinChainPlan {
  name: string;
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

export async function startBitcoinLocalnet(
  context: LocalnetStartContext,
): Promise<
  StartedLocalChains<
    BitcoinLocalnetHandles,
    LocalnetBitcoinDescriptor,
    LocalnetBitcoinSolverDescriptor,
    LocalnetBitcoinUserDescriptor
  >
> {
  const { options, logger } = context;
  const solver = localnetBitcoinKey("solver");
  const users = Array.from({ length: context.userCount }, (_, i) => localnetBitcoinKey(`user ${i}`));
  const chain = await setUpBitcoinChain({
    solverAddress: solver.address,
    userAddresses: users.map((u) => u.address),
    blockTimeMs: options.bitcoinBlockTimeMs ?? LOCALNET_BITCOIN_TIMING.blockTimeMs,
    ...(options.bitcoinBlockMinFeeRateSatVb === undefined
      ? {}
      : { blockMinFeeRateSatVb: options.bitcoinBlockMinFeeRateSatVb }),
    ...(options.startBitcoinNode === undefined ? {} : { startNode: options.startBitcoinNode }),
    logger,
  });
  logger.info({ chain: chain.name, rpcUrl: chain.rpcUrl }, "local chain ready");
  const plan: BitcoinChainPlan = {
    name: LOCALNET_BITCOIN_CHAIN,
    rpcUrl: chain.rpcUrl,
    rpcUser: chain.rpcUser,
    rpcPassword: chain.rpcPassword,
    sourceTimelock: options.bitcoinSourceTimelock ?? LOCALNET_BITCOIN_TIMING.sourceTimelock,
    destinationTimelock: options.bitcoinDestinationTimelock ?? LOCALNET_BITCOIN_TIMING.destinationTimelock,
  };
  const btcId = assetId(plan.name, BTC_ASSET.symbol);
  return {
    handles: { bitcoin: chain },
    descriptor: {
      bitcoin: {
        name: chain.name,
        family: "bitcoin",
        network: chain.network,
        rpcUrl: chain.rpcUrl,
        rpcUser: chain.rpcUser,
        rpcPassword: chain.rpcPassword,
        assets: [{ id: `${chain.name}:btc`, symbol: "btc", decimals: 8 }],
      },
    },
    solverDescriptor: { bitcoinKey: solver.xOnlyKey, bitcoinAddress: solver.address },
    userDescriptors: users.map((bitcoin) => ({ bitcoin })),
    assets: [{ chain: plan.name, asset: BTC_ASSET }],
    feeds: [],
    solverChains: () => [solverBitcoinChain(plan)],
    solverKeys: { bitcoin: solver.privateKey },
    // Its feed on the first anvil chain and the three exchanges' tickers.
    prices: (pricing) => ({
      [btcId]: {
        sources: [pricing.feed("btc"), ...pricing.tickers("btc")],
        minSources: 3,
        maxDeviationBps: 100,
        peg: null,
      },
    }),
    serviceChains: () => [serviceBitcoinChain(plan)],
    solverAddresses: { bitcoin: solver.xOnlyKey },
    stop: () => chain.stop(),
  };
}

/** The solver's view of the localnet's Bitcoin chain: its own node, 1 s blocks, 1-100 sat/vB. */
function solverBitcoinChain(bitcoin: BitcoinChainPlan): BitcoinChainConfig {
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
    finalityDepth: LOCALNET_BITCOIN_TIMING.finalityDepth,
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

function serviceBitcoinChain(bitcoin: BitcoinChainPlan): LocalServiceBitcoinChainConfig {
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
