import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { startSolverApp, type SolverApp } from "../app/solver-app.js";
import type { SolverConfig } from "../config/types.js";
import { buildContracts } from "../../contracts/evm/compile.js";
import { LOCALNET_ROLES, LOCALNET_USER_COUNT, localnetAccount } from "./accounts.js";
import { setIntervalMining, startAnvil, type AnvilInstance } from "./anvil.js";
import { writeDescriptor, type LocalnetDescriptor } from "./descriptor.js";
import { setUpEvmChain } from "./evm-setup.js";
import {
  assetId,
  LOCALNET_TIMING,
  localnetServiceConfig,
  localnetSolverConfig,
  type LocalEvmChainPlan,
} from "./localnet-config.js";
import type { LocalServiceConfig } from "./service/config.js";
import { startLocalService, type LocalService } from "./service/service.js";
import { freePort } from "../util/free-port.js";

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
  /** Source timelock the service gives orders, in blocks. */
  sourceTimelock?: number;
  /** Start from empty databases. */
  fresh?: boolean;
}

export interface Localnet {
  descriptor: LocalnetDescriptor;
  anvils: Map<string, AnvilInstance>;
  service: LocalService;
  serviceConfig: LocalServiceConfig;
  /** The solver's config as the localnet runs it; a caller may start its own solver from it. */
  solverConfig: SolverConfig;
  solver: SolverApp | null;
  startSolver(config?: SolverConfig): Promise<SolverApp>;
  stop(): Promise<void>;
}

/**
 * The whole system on one machine: two anvil chains with the HTLCs and test tokens, funded accounts,
 * the local service and the solver, described in `<dir>/localnet.json`.
 */
export async function startLocalnet(options: LocalnetOptions): Promise<Localnet> {
  const { dir, logger } = options;
  if (options.fresh !== false) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  buildContracts();

  const deployer = localnetAccount(LOCALNET_ROLES.deployer);
  const solverAccount = localnetAccount(LOCALNET_ROLES.solver);
  const relayer = localnetAccount(LOCALNET_ROLES.relayer);
  const users = Array.from({ length: LOCALNET_USER_COUNT }, (_, i) =>
    localnetAccount(LOCALNET_ROLES.firstUser + i),
  );

  const anvils = new Map<string, AnvilInstance>();
  const stopAnvils = async (): Promise<void> => {
    await Promise.all([...anvils.values()].map((a) => a.stop()));
  };
  const plans: LocalEvmChainPlan[] = [];
  try {
    for (const chain of LOCALNET_EVM_CHAINS) {
      const anvil = await startAnvil({
        chainId: chain.chainId,
        blockTime: LOCALNET_TIMING.blockTimeMs / 1000,
      });
      anvils.set(chain.name, anvil);
      const assets = await setUpEvmChain({
        chainId: chain.chainId,
        name: chain.name,
        rpcUrl: anvil.rpcUrl,
        deployer,
        funded: [solverAccount.address, ...users.map((u) => u.address)],
      });
      await setIntervalMining(anvil.rpcUrl, LOCALNET_TIMING.blockTimeMs / 1000);
      plans.push({ name: chain.name, chainId: chain.chainId, rpcUrl: anvil.rpcUrl, assets });
      logger.info({ chain: chain.name, rpcUrl: anvil.rpcUrl }, "local chain ready");
    }
  } catch (error) {
    await stopAnvils();
    throw error;
  }

  const appId = randomBytes(32).toString("hex");
  const solverId = solverAccount.address.toLowerCase().replace(/^0x/, "");
  const [quotePort, opsPort, servicePort] = [await freePort(), await freePort(), await freePort()];
  const quoteUrl = `http://127.0.0.1:${quotePort}/quote`;
  const serviceConfig = localnetServiceConfig({
    chains: plans,
    port: servicePort,
    dbPath: join(dir, "service.sqlite"),
    appId,
    relayerKey: relayer.privateKey,
    solver: { id: solverId, quoteUrl, evmAddress: solverAccount.address },
    ...(options.sourceTimelock === undefined ? {} : { sourceTimelock: options.sourceTimelock }),
  });
  let service: LocalService;
  try {
    service = await startLocalService(serviceConfig, logger);
  } catch (error) {
    await stopAnvils();
    throw error;
  }
  const solverConfig = localnetSolverConfig({
    chains: plans,
    serviceUrl: service.url,
    appId,
    solverId,
    evmKey: solverAccount.privateKey,
    journalPath: join(dir, "solver.sqlite"),
    quotePort,
    opsPort,
  });

  const descriptor: LocalnetDescriptor = {
    service: { url: service.url, appId },
    solver: {
      id: solverId,
      quoteUrl,
      opsUrl: `http://127.0.0.1:${opsPort}`,
      evmAddress: solverAccount.address,
    },
    chains: plans.map((plan) => ({
      name: plan.name,
      family: "evm",
      chainId: plan.chainId,
      rpcUrl: plan.rpcUrl,
      htlc: Object.fromEntries(
        plan.assets.filter((a) => a.tokenAddress !== "native").map((a) => [a.symbol, a.htlcAddress]),
      ),
      nativeHtlc: plan.assets.find((a) => a.tokenAddress === "native")?.htlcAddress ?? "0x",
      tokens: Object.fromEntries(
        plan.assets
          .filter((a) => a.tokenAddress !== "native")
          .map((a) => [a.symbol, a.tokenAddress as `0x${string}`]),
      ),
      assets: plan.assets.map((a) => ({
        id: assetId(plan.name, a.symbol),
        symbol: a.symbol,
        decimals: a.decimals,
        tokenAddress: a.tokenAddress,
        htlcAddress: a.htlcAddress,
      })),
    })),
    users: users.map((u) => ({ address: u.address, privateKey: u.privateKey })),
  };
  writeDescriptor(join(dir, "localnet.json"), descriptor);

  const localnet: Localnet = {
    descriptor,
    anvils,
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
      await stopAnvils();
    },
  };
  if (options.startSolver !== false) await localnet.startSolver();
  return localnet;
}
