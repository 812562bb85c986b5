import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { startSolverApp, type SolverApp } from "htlc-solver/app/solver-app.js";
import type { SolverConfig } from "htlc-solver/config/types.js";
import { buildContracts } from "htlc-solver/contracts/evm/compile.js";
import {
  ANVIL_PREFUNDED_ACCOUNTS,
  LOCALNET_ROLES,
  LOCALNET_USER_COUNT,
  localnetAccount,
  localnetUserIndex,
} from "./accounts.js";
import { setIntervalMining, startAnvil, type AnvilInstance } from "./families/evm/anvil.js";
import {
  LOCALNET_BITCOIN_CHAIN,
  LOCALNET_BITCOIN_TIMING,
  localnetBitcoinKey,
  setUpBitcoinChain,
  type LocalBitcoinChain,
} from "./families/bitcoin/bitcoin-setup.js";
import {
  evmChainDescriptor,
  solanaChainDescriptor,
  writeDescriptor,
  type LocalnetDescriptor,
} from "./descriptor.js";
import type { RegtestEndpoint, StartBitcoinRegtestOptions } from "./families/bitcoin/chain/index.js";
import { setUpEvmChain } from "./families/evm/evm-setup.js";
import {
  LOCALNET_FEED_HEARTBEAT_MS,
  LOCALNET_PRICES,
  LOCALNET_TIMING,
  localnetServiceConfig,
  localnetSolverConfig,
  type LocalBitcoinChainPlan,
  type LocalEvmChainPlan,
  type LocalSolanaChainPlan,
} from "./localnet-config.js";
import { LocalPriceFeeds } from "./price-feeds.js";
import {
  LOCALNET_SOLANA_CHAIN_ID,
  LOCALNET_SOLANA_TIMING,
  localnetSolanaKey,
  localnetSolanaKeypair,
  setUpSolanaChain,
  type LocalSolanaChainSetup,
} from "./families/solana/solana-setup.js";
import { startTickerServer, type TickerServer } from "./ticker-server.js";
import type { LocalServiceConfig } from "./service/config.js";
import { startLocalService, type LocalService } from "./service/service.js";
import { freePort } from "htlc-solver/util/free-port.js";

export const LOCALNET_EVM_CHAINS = [
  { name: "ethereum_localnet", chainId: 31337 },
  { name: "arbitrum_localnet", chainId: 31338 },
] as const;

export interface LocalnetOptions {
  /** Where the descriptor, the journal and the service's database go. */
  dir: string;
  logger: Logger;
  /** Start the solver in this process (the default), or leave that to the caller. */
  startSolver?: boolean;
  /** Source timelock the service gives orders on the EVM chains, in blocks. */
  sourceTimelock?: number;
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
  /** Solana destination timelock, for the service and the solver's fills, in slots (default 600). */
  solanaDestinationTimelock?: number;
  /** Milliseconds per Solana slot (default 400); 0 advances slots only on demand. */
  solanaSlotMs?: number;
  /** Start from empty databases. */
  fresh?: boolean;
  /** Funded test users (default 3): a load test spreads many swaps over many users. */
  users?: number;
  /**
   * Starts the local service from its config; the default runs it in this process. The load benchmark runs
   * it as its own process, as the live service runs apart from its users.
   */
  startService?: (config: LocalServiceConfig, logger: Logger) => Promise<LocalService>;
  /** Starts the Bitcoin regtest node; the default runs it in this process (the load benchmark: its own). */
  startBitcoinNode?: (options: StartBitcoinRegtestOptions) => Promise<RegtestEndpoint>;
}

export interface Localnet {
  descriptor: LocalnetDescriptor;
  anvils: Map<string, AnvilInstance>;
  bitcoin: LocalBitcoinChain;
  /** The local Solana cluster (in this process: tests advance its slots with `solana.local`). */
  solana: LocalSolanaChainSetup;
  /** The on-chain price feeds on each anvil chain; tests move prices with them. */
  priceFeeds: LocalPriceFeeds;
  /** The local stand-in for the exchanges' tickers. */
  tickers: TickerServer;
  service: LocalService;
  serviceConfig: LocalServiceConfig;
  /** The solver's config as the localnet runs it; a caller may start its own solver from it. */
  solverConfig: SolverConfig;
  solver: SolverApp | null;
  startSolver(config?: SolverConfig): Promise<SolverApp>;
  stop(): Promise<void>;
}

/** The localnet's fixed keys: anvil's default accounts and Bitcoin keys from public labels. */
function localnetKeys(userCount: number) {
  return {
    deployer: localnetAccount(LOCALNET_ROLES.deployer),
    priceKeeper: localnetAccount(LOCALNET_ROLES.priceKeeper),
    solver: localnetAccount(LOCALNET_ROLES.solver),
    solverBitcoin: localnetBitcoinKey("solver"),
    solverSolana: localnetSolanaKey("solver"),
    relayer: localnetAccount(LOCALNET_ROLES.relayer),
    solanaRelayer: localnetSolanaKey("relayer"),
    users: Array.from({ length: userCount }, (_, i) => ({
      ...localnetAccount(localnetUserIndex(i)),
      prefunded: localnetUserIndex(i) < ANVIL_PREFUNDED_ACCOUNTS,
      bitcoin: localnetBitcoinKey(`user ${i}`),
      solana: localnetSolanaKey(`user ${i}`),
    })),
  };
}

type LocalnetKeys = ReturnType<typeof localnetKeys>;

interface LocalChains {
  anvils: Map<string, AnvilInstance>;
  plans: LocalEvmChainPlan[];
  priceFeeds: LocalPriceFeeds;
  tickers: TickerServer;
  bitcoin: LocalBitcoinChain;
  bitcoinPlan: LocalBitcoinChainPlan;
  solana: LocalSolanaChainSetup;
  solanaPlan: LocalSolanaChainPlan;
  stop(): Promise<void>;
}

/**
 * The whole system on one machine: two anvil chains with the HTLCs and test tokens, a Bitcoin regtest
 * chain, a Solana cluster with the HTLC programs and a USDC-like token, funded accounts, the local
 * service and the solver, described in `<dir>/localnet.json`.
 */
export async function startLocalnet(options: LocalnetOptions): Promise<Localnet> {
  const { dir, logger } = options;
  if (options.fresh !== false) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  buildContracts();
  const userCount = options.users ?? LOCALNET_USER_COUNT;
  if (!Number.isSafeInteger(userCount) || userCount < 1)
    throw new Error(`a localnet needs at least one user, got users = ${userCount}`);
  const keys = localnetKeys(userCount);
  const chains = await startChains(options, keys);

  const appId = randomBytes(32).toString("hex");
  // The solver answers signed quote requests only, as an operator would set it up.
  const quoteSecret = randomBytes(32).toString("hex");
  const solverId = keys.solver.address.toLowerCase().replace(/^0x/, "");
  const [quotePort, opsPort, servicePort] = [await freePort(), await freePort(), await freePort()];
  const quoteUrl = `http://127.0.0.1:${quotePort}/quote`;
  const serviceConfig = localnetServiceConfig({
    chains: chains.plans,
    bitcoin: chains.bitcoinPlan,
    solana: chains.solanaPlan,
    port: servicePort,
    dbPath: join(dir, "service.sqlite"),
    appId,
    relayerKey: keys.relayer.privateKey,
    solanaRelayerKey: keys.solanaRelayer.secretKey,
    solver: {
      id: solverId,
      quoteUrl,
      quoteSecret,
      evmAddress: keys.solver.address,
      bitcoinKey: keys.solverBitcoin.xOnlyKey,
      solanaAddress: keys.solverSolana.address,
    },
    ...(options.sourceTimelock === undefined ? {} : { sourceTimelock: options.sourceTimelock }),
  });
  let service: LocalService;
  try {
    service = await (options.startService ?? startLocalService)(serviceConfig, logger);
  } catch (error) {
    await chains.stop();
    throw error;
  }
  const solverConfig = localnetSolverConfig({
    chains: chains.plans,
    bitcoin: chains.bitcoinPlan,
    solana: chains.solanaPlan,
    serviceUrl: service.url,
    appId,
    solverId,
    evmKey: keys.solver.privateKey,
    bitcoinKey: keys.solverBitcoin.privateKey,
    solanaKey: keys.solverSolana.secretKey,
    journalPath: join(dir, "solver.sqlite"),
    quotePort,
    opsPort,
    quoteSecret,
    prices: { tickerUrl: chains.tickers.url, feeds: chains.priceFeeds.feeds },
  });

  const descriptor: LocalnetDescriptor = {
    service: { url: service.url, appId },
    solver: {
      id: solverId,
      quoteUrl,
      opsUrl: `http://127.0.0.1:${opsPort}`,
      evmAddress: keys.solver.address,
      bitcoinKey: keys.solverBitcoin.xOnlyKey,
      bitcoinAddress: keys.solverBitcoin.address,
      solanaAddress: keys.solverSolana.address,
    },
    chains: chains.plans.map(evmChainDescriptor),
    bitcoin: {
      name: chains.bitcoin.name,
      family: "bitcoin",
      network: chains.bitcoin.network,
      rpcUrl: chains.bitcoin.rpcUrl,
      rpcUser: chains.bitcoin.rpcUser,
      rpcPassword: chains.bitcoin.rpcPassword,
      assets: [{ id: `${chains.bitcoin.name}:btc`, symbol: "btc", decimals: 8 }],
    },
    solana: solanaChainDescriptor(chains.solanaPlan),
    users: keys.users.map((u) => ({
      address: u.address,
      privateKey: u.privateKey,
      bitcoin: u.bitcoin,
      solana: u.solana,
    })),
    prices: { tickerUrl: chains.tickers.url, feeds: chains.priceFeeds.feeds },
  };
  writeDescriptor(join(dir, "localnet.json"), descriptor);

  const localnet: Localnet = {
    descriptor,
    anvils: chains.anvils,
    bitcoin: chains.bitcoin,
    solana: chains.solana,
    priceFeeds: chains.priceFeeds,
    tickers: chains.tickers,
    service,
    serviceConfig,
    solverConfig,
    solver: null,
    startSolver: async (config = solverConfig) => {
      localnet.solver = await startSolverApp(config, logger.child({ component: "solver" }));
      return localnet.solver;
    },
    stop: async () => {
      await localnet.solver?.stop();
      await service.stop();
      await chains.stop();
    },
  };
  if (options.startSolver !== false) await localnet.startSolver();
  return localnet;
}

/**
 * Both anvils with their contracts and funds, and the Bitcoin chain with its coinbases and miner, set up
 * side by side, then the Solana cluster. The anvils mine per transaction while they are set up (each
 * deployment and mint is mined at once) and switch to one block a second only when everything is in place.
 */
async function startChains(options: LocalnetOptions, keys: LocalnetKeys): Promise<LocalChains> {
  const { logger } = options;
  const anvils = new Map<string, AnvilInstance>();
  let bitcoin: LocalBitcoinChain | null = null;
  let solana: LocalSolanaChainSetup | null = null;
  let priceFeeds: LocalPriceFeeds | null = null;
  let tickers: TickerServer | null = null;
  const stop = async (): Promise<void> => {
    await priceFeeds?.stop();
    await tickers?.stop();
    await Promise.all([...anvils.values()].map((a) => a.stop()));
    await bitcoin?.stop();
    await solana?.stop();
  };
  let plans: LocalEvmChainPlan[] = [];
  try {
    const bitcoinReady = setUpBitcoinChain({
      solverAddress: keys.solverBitcoin.address,
      userAddresses: keys.users.map((u) => u.bitcoin.address),
      blockTimeMs: options.bitcoinBlockTimeMs ?? LOCALNET_BITCOIN_TIMING.blockTimeMs,
      ...(options.bitcoinBlockMinFeeRateSatVb === undefined
        ? {}
        : { blockMinFeeRateSatVb: options.bitcoinBlockMinFeeRateSatVb }),
      ...(options.startBitcoinNode === undefined ? {} : { startNode: options.startBitcoinNode }),
      logger,
    }).then((chain) => {
      bitcoin = chain;
      return chain;
    });
    const evmReady = Promise.all(
      LOCALNET_EVM_CHAINS.map(async (chain): Promise<LocalEvmChainPlan> => {
        const anvil = await startAnvil({ chainId: chain.chainId });
        anvils.set(chain.name, anvil);
        const { assets, batchExecutor } = await setUpEvmChain({
          chainId: chain.chainId,
          name: chain.name,
          rpcUrl: anvil.rpcUrl,
          deployer: keys.deployer,
          funded: [keys.solver.address, ...keys.users.map((u) => u.address)],
          coinless: keys.users.filter((u) => !u.prefunded).map((u) => u.address),
        });
        return { name: chain.name, chainId: chain.chainId, rpcUrl: anvil.rpcUrl, assets, batchExecutor };
      }),
    );
    // Both settle before anything is judged, so a failure never leaves a chain starting unseen.
    const [evm, btc] = await Promise.allSettled([evmReady, bitcoinReady]);
    if (evm.status === "rejected") throw evm.reason;
    if (btc.status === "rejected") throw btc.reason;
    plans = evm.value;
    bitcoin = btc.value;
    priceFeeds = await LocalPriceFeeds.deploy({
      chains: plans,
      keeper: keys.priceKeeper,
      prices: LOCALNET_PRICES,
    });
    for (const plan of plans) {
      await setIntervalMining(plan.rpcUrl, LOCALNET_TIMING.blockTimeMs / 1000);
      logger.info({ chain: plan.name, rpcUrl: plan.rpcUrl }, "local chain ready");
    }
    priceFeeds.startHeartbeat(LOCALNET_FEED_HEARTBEAT_MS);
    tickers = await startTickerServer(
      Object.fromEntries(
        Object.entries(LOCALNET_PRICES).map(([symbol, price]) => [symbol.toUpperCase(), price]),
      ),
    );
    logger.info({ feeds: priceFeeds.feeds.length, tickerUrl: tickers.url }, "local price sources ready");
    logger.info({ chain: btc.value.name, rpcUrl: btc.value.rpcUrl }, "local chain ready");
    solana = await setUpSolanaChain({
      solver: localnetSolanaKeypair("solver").publicKey,
      users: keys.users.map((_, i) => localnetSolanaKeypair(`user ${i}`).publicKey),
      relayer: localnetSolanaKeypair("relayer").publicKey,
      ...(options.solanaSlotMs === undefined ? {} : { slotMs: options.solanaSlotMs }),
      logger,
    });
    logger.info({ chain: solana.name, rpcUrl: solana.rpcUrl }, "local chain ready");
  } catch (error) {
    await stop();
    throw error;
  }
  const bitcoinPlan: LocalBitcoinChainPlan = {
    name: LOCALNET_BITCOIN_CHAIN,
    rpcUrl: bitcoin.rpcUrl,
    rpcUser: bitcoin.rpcUser,
    rpcPassword: bitcoin.rpcPassword,
    sourceTimelock: options.bitcoinSourceTimelock ?? LOCALNET_BITCOIN_TIMING.sourceTimelock,
    destinationTimelock: options.bitcoinDestinationTimelock ?? LOCALNET_BITCOIN_TIMING.destinationTimelock,
  };
  const solanaPlan: LocalSolanaChainPlan = {
    name: solana.name,
    chainId: LOCALNET_SOLANA_CHAIN_ID,
    rpcUrl: solana.rpcUrl,
    nativeProgramId: solana.nativeProgramId,
    splProgramId: solana.splProgramId,
    usdcMint: solana.usdcMint,
    sourceTimelock: LOCALNET_SOLANA_TIMING.sourceTimelock,
    destinationTimelock: options.solanaDestinationTimelock ?? LOCALNET_SOLANA_TIMING.destinationTimelock,
  };
  if (priceFeeds === null || tickers === null) throw new Error("the localnet's price sources did not start");
  return { anvils, plans, priceFeeds, tickers, bitcoin, bitcoinPlan, solana, solanaPlan, stop };
}
