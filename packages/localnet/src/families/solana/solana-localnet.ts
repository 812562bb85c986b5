/** The localnet's Solana cluster, and its part of the solver's and the service's config and the descriptor. */
import type { SolanaChainConfig } from "htlc-solver/chains/solana/config.js";
import type { SolanaProgramVersion } from "htlc-solver/chains/solana/program-version.js";
import { assetId, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalnetStartContext, StartedLocalChains } from "../local-chain-family.js";
import {
  solanaAssets,
  solanaChainDescriptor,
  type LocalnetSolanaDescriptor,
  type LocalnetSolanaSolverDescriptor,
  type LocalnetSolanaUserDescriptor,
  type LocalSolanaChainPlan,
} from "./solana-descriptor.js";
import type { LocalServiceSolanaChainConfig } from "./service/solana-config.js";
import {
  LOCALNET_SOLANA_CHAIN_ID,
  LOCALNET_SOLANA_TIMING,
  localnetSolanaKey,
  localnetSolanaKeypair,
  setUpSolanaChain,
  type LocalSolanaChainSetup,
} from "./solana-setup.js";

export interface SolanaLocalnetOptions {
  /** Solana destination timelock, for the service and the solver's fills, in slots (default 600). */
  solanaDestinationTimelock?: number;
  /** Milliseconds per Solana slot (default 400); 0 advances slots only on demand. */
  solanaSlotMs?: number;
  /**
   * The programs the Solana chain's swaps use, for the service, the solver and the users (default
   * `current`). The cluster loads both versions, each at its own ids.
   */
  solanaProgramVersion?: SolanaProgramVersion;
}

export interface SolanaLocalnetHandles {
  /** The local Solana cluster (in this process: tests advance its slots with `solana.local`). */
  solana: LocalSolanaChainSetup;
}

export async function startSolanaLocalnet(
  context: LocalnetStartContext,
): Promise<
  StartedLocalChains<
    SolanaLocalnetHandles,
    LocalnetSolanaDescriptor,
    LocalnetSolanaSolverDescriptor,
    LocalnetSolanaUserDescriptor
  >
> {
  const { options, logger } = context;
  const users = Array.from({ length: context.userCount }, (_, i) => `user ${i}`);
  const solana = await setUpSolanaChain({
    solver: localnetSolanaKeypair("solver").publicKey,
    users: users.map((label) => localnetSolanaKeypair(label).publicKey),
    relayer: localnetSolanaKeypair("relayer").publicKey,
    ...(options.solanaSlotMs === undefined ? {} : { slotMs: options.solanaSlotMs }),
    logger,
  });
  logger.info({ chain: solana.name, rpcUrl: solana.rpcUrl }, "local chain ready");
  const plan: LocalSolanaChainPlan = {
    name: solana.name,
    chainId: LOCALNET_SOLANA_CHAIN_ID,
    rpcUrl: solana.rpcUrl,
    ...programsOf(solana, options.solanaProgramVersion ?? "current"),
    usdcMint: solana.usdcMint,
    sourceTimelock: LOCALNET_SOLANA_TIMING.sourceTimelock,
    destinationTimelock: options.solanaDestinationTimelock ?? LOCALNET_SOLANA_TIMING.destinationTimelock,
  };
  const solver = localnetSolanaKey("solver");
  return {
    handles: { solana },
    descriptor: { solana: solanaChainDescriptor(plan) },
    solverDescriptor: { solanaAddress: solver.address },
    userDescriptors: users.map((label) => ({ solana: localnetSolanaKey(label) })),
    assets: solanaAssets(plan).map((asset) => ({ chain: plan.name, asset })),
    feeds: [],
    solverChains: () => [solverSolanaChain(plan)],
    solverKeys: { solana: solver.secretKey },
    // SOL like BTC: its feed on the first anvil chain and the three tickers; Solana USDC like EVM USDC.
    prices: (pricing) => ({
      [assetId(plan.name, "sol")]: {
        sources: [pricing.feed("sol"), ...pricing.tickers("sol")],
        minSources: 3,
        maxDeviationBps: 100,
        peg: null,
      },
      [assetId(plan.name, "usdc")]: {
        sources: [pricing.feed("usdc"), ...pricing.tickers("usdc")],
        minSources: 1,
        maxDeviationBps: 100,
        peg: { base: "usd", maxDeviationBps: 100, quotedIn: "usd" },
      },
    }),
    serviceChains: () => [serviceSolanaChain(plan, localnetSolanaKey("relayer").secretKey)],
    solverAddresses: { solana: solver.address },
    stop: () => solana.stop(),
  };
}

/** The solver's view of the localnet's Solana chain: 400 ms slots (500 at the slowest), fills of 600 slots. */
function solverSolanaChain(solana: LocalSolanaChainPlan): SolanaChainConfig {
  return {
    family: "solana",
    name: solana.name,
    chainId: solana.chainId,
    rpcUrls: [solana.rpcUrl],
    nativeProgramId: solana.nativeProgramId,
    splProgramId: solana.splProgramId,
    programVersion: solana.programVersion,
    commitment: "confirmed",
    minBlockTimeMs: LOCALNET_SOLANA_TIMING.slotMs,
    maxBlockTimeMs: LOCALNET_SOLANA_TIMING.maxSlotMs,
    minConfirmations: LOCALNET_SOLANA_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_SOLANA_TIMING.finalityDepth,
    fillTimelockBlocks: solana.destinationTimelock,
    bumpAfterMs: 15_000,
    maxHeadLagBlocks: 75,
    rpcTimeoutMs: 15_000,
    computeUnitPriceFloorMicroLamports: 0n,
    computeUnitPriceCeilingMicroLamports: 1_000_000n,
    assets: solanaAssets(solana).map((asset) => ({
      id: assetId(solana.name, asset.symbol),
      chain: solana.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.tokenAddress === "native" ? solana.nativeProgramId : solana.splProgramId,
    })),
  };
}

/** The service pays its Solana redeems from `relayerSecretKey` (base58). */
function serviceSolanaChain(
  solana: LocalSolanaChainPlan,
  relayerSecretKey: string,
): LocalServiceSolanaChainConfig {
  return {
    name: solana.name,
    family: "solana",
    chainId: solana.chainId,
    rpcUrl: solana.rpcUrl,
    nativeProgramId: solana.nativeProgramId,
    splProgramId: solana.splProgramId,
    programVersion: solana.programVersion,
    relayerSecretKey,
    requiredConfirmations: LOCALNET_SOLANA_TIMING.requiredConfirmations,
    sourceTimelock: solana.sourceTimelock,
    destinationTimelock: solana.destinationTimelock,
    blockTimeMs: LOCALNET_SOLANA_TIMING.slotMs,
    explorerUrl: "",
    assets: solanaAssets(solana).map((asset) => ({
      ...asset,
      priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
      minAmount: "1",
      maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
    })),
  };
}

/** The chain's program ids for a version: the cluster runs both. */
function programsOf(
  solana: LocalSolanaChainSetup,
  version: SolanaProgramVersion,
): Pick<LocalSolanaChainPlan, "nativeProgramId" | "splProgramId" | "programVersion"> {
  const ids = solana.local.programIds;
  const [native, spl] = version === "legacy" ? [ids.legacyNative, ids.legacySpl] : [ids.native, ids.spl];
  return { nativeProgramId: native.toBase58(), splProgramId: spl.toBase58(), programVersion: version };
}
