/** The localnet's Starknet chain, and its part of the solver's and the service's config and the descriptor. */
import type { StarknetChainConfig } from "htlc-solver/chains/starknet/config.js";
import type { OrderIdLayout } from "htlc-solver/chains/starknet/order-id.js";
import { assetId, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalnetStartContext, StartedLocalChains } from "../local-chain-family.js";
import {
  starknetAssets,
  starknetChainDescriptor,
  type LocalnetStarknetDescriptor,
  type LocalnetStarknetSolverDescriptor,
  type LocalnetStarknetUserDescriptor,
  type LocalStarknetChainPlan,
} from "./starknet-descriptor.js";
import type { LocalServiceStarknetChainConfig } from "./service/starknet-config.js";
import {
  LOCALNET_STARKNET_TIMING,
  setUpStarknetChain,
  type LocalStarknetChainSetup,
} from "./starknet-setup.js";

export interface StarknetLocalnetOptions {
  /** Starknet destination timelock, for the service and the solver's fills, in blocks (default 600). */
  starknetDestinationTimelock?: number;
  /** Milliseconds per Starknet block (default 1000); 0 makes blocks only on demand. */
  starknetBlockMs?: number;
  /**
   * The HTLC the Starknet swaps use, for the service, the solver and the users (default `deployed`, the
   * contract live today). The chain runs both, each at its own address.
   */
  starknetOrderIdLayout?: OrderIdLayout;
}

export interface StarknetLocalnetHandles {
  /** The local Starknet chain (in this process: tests make blocks and set gas prices with `starknet.local`). */
  starknet: LocalStarknetChainSetup;
}

/** STRK pays every Starknet fee; the solver lists it (its coin), the service does not offer it. */
const STRK = "strk";
const STRK_DECIMALS = 18;

export async function startStarknetLocalnet(
  context: LocalnetStartContext,
): Promise<
  StartedLocalChains<
    StarknetLocalnetHandles,
    LocalnetStarknetDescriptor,
    LocalnetStarknetSolverDescriptor,
    LocalnetStarknetUserDescriptor
  >
> {
  const { options, logger } = context;
  const starknet = await setUpStarknetChain({
    userLabels: Array.from({ length: context.userCount }, (_, i) => `user ${i}`),
    ...(options.starknetBlockMs === undefined ? {} : { blockMs: options.starknetBlockMs }),
    logger,
  });
  logger.info({ chain: starknet.name, rpcUrl: starknet.rpcUrl }, "local chain ready");
  const layout = options.starknetOrderIdLayout ?? "deployed";
  const plan: LocalStarknetChainPlan = {
    name: starknet.name,
    chainId: starknet.chainId,
    rpcUrl: starknet.rpcUrl,
    orderIdLayout: layout,
    feeTokenAddress: starknet.strk,
    wbtc: starknet.wbtc,
    htlc: starknet.htlcs[layout],
    strkHtlc: starknet.strkHtlcs[layout],
    sourceTimelock: LOCALNET_STARKNET_TIMING.sourceTimelock,
    destinationTimelock: options.starknetDestinationTimelock ?? LOCALNET_STARKNET_TIMING.destinationTimelock,
  };
  return {
    handles: { starknet },
    descriptor: { starknet: starknetChainDescriptor(plan) },
    solverDescriptor: { starknetAddress: starknet.solver.address },
    userDescriptors: starknet.users.map((user) => ({ starknet: user })),
    assets: starknetAssets(plan).map((asset) => ({ chain: plan.name, asset })),
    feeCoins: [{ chain: plan.name, asset: { symbol: STRK, decimals: STRK_DECIMALS } }],
    feeds: [],
    solverChains: () => [solverStarknetChain(plan, starknet.solver.address)],
    solverKeys: { starknet: starknet.solver.privateKey },
    // WBTC like the EVM chains' WBTC: the first wbtc feed behind a de-peg guard against BTC; STRK at its
    // fixed localnet price (no feed or ticker carries it here).
    prices: (pricing) => ({
      [assetId(plan.name, "wbtc")]: {
        sources: [pricing.feed("wbtc"), ...pricing.tickers("wbtc")],
        minSources: 1,
        maxDeviationBps: 0,
        peg: { base: pricing.assetIdOf("btc"), maxDeviationBps: 200, quotedIn: "usd" },
      },
      [assetId(plan.name, STRK)]: {
        sources: [{ kind: "fixed" }],
        minSources: 1,
        maxDeviationBps: 0,
        peg: null,
      },
    }),
    serviceChains: () => [serviceStarknetChain(plan, starknet)],
    solverAddresses: { starknet: starknet.solver.address },
    stop: () => starknet.stop(),
  };
}

/**
 * The solver's view of the localnet's Starknet chain: a block a second (1.25 s at the slowest), fills of
 * 600 blocks, its transactions final three blocks deep at ACCEPTED_ON_L2.
 */
function solverStarknetChain(plan: LocalStarknetChainPlan, accountAddress: string): StarknetChainConfig {
  return {
    family: "starknet",
    name: plan.name,
    chainId: plan.chainId,
    rpcUrls: [plan.rpcUrl],
    accountAddress,
    orderIdLayout: plan.orderIdLayout,
    finality: "ACCEPTED_ON_L2",
    feeTokenAddress: plan.feeTokenAddress,
    minBlockTimeMs: LOCALNET_STARKNET_TIMING.blockMs,
    maxBlockTimeMs: LOCALNET_STARKNET_TIMING.maxBlockMs,
    minConfirmations: LOCALNET_STARKNET_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_STARKNET_TIMING.finalityDepth,
    fillTimelockBlocks: plan.destinationTimelock,
    bumpAfterMs: 15_000,
    maxHeadLagBlocks: 10,
    rpcTimeoutMs: 15_000,
    maxL1GasPriceFri: 1_000_000_000_000_000n,
    maxL2GasPriceFri: 100_000_000_000n,
    maxL1DataGasPriceFri: 100_000_000_000_000n,
    maxFeeFri: 10_000_000_000_000_000_000n,
    feeMarginPercent: 50,
    escalationPercent: 25,
    assets: [
      ...starknetAssets(plan),
      {
        symbol: STRK,
        decimals: STRK_DECIMALS,
        tokenAddress: plan.feeTokenAddress,
        htlcAddress: plan.strkHtlc,
      },
    ].map((asset) => ({
      id: assetId(plan.name, asset.symbol),
      chain: plan.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
    })),
  };
}

/** The service pays its Starknet redeems and relayed initiates from the relayer account. */
export function serviceStarknetChain(
  plan: LocalStarknetChainPlan,
  starknet: LocalStarknetChainSetup,
): LocalServiceStarknetChainConfig {
  return {
    name: plan.name,
    family: "starknet",
    chainId: plan.chainId,
    rpcUrl: plan.rpcUrl,
    orderIdLayout: plan.orderIdLayout,
    relayerAddress: starknet.relayer.address,
    relayerPrivateKey: starknet.relayer.privateKey,
    requiredConfirmations: LOCALNET_STARKNET_TIMING.requiredConfirmations,
    sourceTimelock: plan.sourceTimelock,
    destinationTimelock: plan.destinationTimelock,
    blockTimeMs: LOCALNET_STARKNET_TIMING.blockMs,
    explorerUrl: "",
    assets: starknetAssets(plan).map((asset) => ({
      ...asset,
      priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
      minAmount: "1",
      maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
    })),
  };
}
