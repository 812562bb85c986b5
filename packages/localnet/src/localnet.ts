import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { startSolverApp, type SolverApp } from "htlc-solver/app/solver-app.js";
import type { SolverConfig } from "htlc-solver/config/types.js";
import { buildContracts } from "htlc-solver/contracts/evm/compile.js";
import { LOCALNET_ROLES, LOCALNET_USER_COUNT, localnetAccount } from "./accounts.js";
import { writeDescriptor, type LocalnetDescriptor } from "./descriptor.js";
import {
  startLocalnetFamilies,
  type LocalnetFamilyOptions,
  type StartedLocalnetFamilies,
} from "./families/registry.js";
import { LOCALNET_PRICES, localnetServiceConfig, localnetSolverConfig } from "./localnet-config.js";
import { startTickerServer, type TickerServer } from "./ticker-server.js";
import type { LocalServiceConfig } from "./service/config.js";
import { startLocalService, type LocalService } from "./service/service.js";
import { freePort } from "htlc-solver/util/free-port.js";

/** The localnet's options; each family adds its own (families/<family>/<family>-localnet.ts). */
export interface LocalnetOptions extends LocalnetFamilyOptions {
  /** Where the descriptor, the journal and the service's database go. */
  dir: string;
  logger: Logger;
  /** Start the solver in this process (the default), or leave that to the caller. */
  startSolver?: boolean;
  /** Start from empty databases. */
  fresh?: boolean;
  /** Funded test users (default 3): a load test spreads many swaps over many users. */
  users?: number;
  /**
   * Starts the local service from its config; the default runs it in this process. The load benchmark runs
   * it as its own process, as the live service runs apart from its users.
   */
  startService?: (config: LocalServiceConfig, logger: Logger) => Promise<LocalService>;
}

/** The running localnet; each family adds the handles tests drive its chains with. */
export type Localnet = StartedLocalnetFamilies["handles"] & {
  descriptor: LocalnetDescriptor;
  /** The local stand-in for the exchanges' tickers. */
  tickers: TickerServer;
  service: LocalService;
  serviceConfig: LocalServiceConfig;
  /** The solver's config as the localnet runs it; a caller may start its own solver from it. */
  solverConfig: SolverConfig;
  solver: SolverApp | null;
  startSolver(config?: SolverConfig): Promise<SolverApp>;
  stop(): Promise<void>;
};

/**
 * The whole system on one machine: each family's local chains with their contracts or programs and
 * funded accounts, the exchanges' tickers, the local service and the solver, described in
 * `<dir>/localnet.json`.
 */
export async function startLocalnet(options: LocalnetOptions): Promise<Localnet> {
  const { dir, logger } = options;
  if (options.fresh !== false) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  buildContracts();
  const userCount = options.users ?? LOCALNET_USER_COUNT;
  if (!Number.isSafeInteger(userCount) || userCount < 1)
    throw new Error(`a localnet needs at least one user, got users = ${userCount}`);
  const families = await startLocalnetFamilies({ options, userCount, logger });
  let tickers: TickerServer;
  try {
    tickers = await startTickerServer(
      Object.fromEntries(
        Object.entries(LOCALNET_PRICES).map(([symbol, price]) => [symbol.toUpperCase(), price]),
      ),
    );
  } catch (error) {
    await stopAll(families);
    throw error;
  }
  const feeds = families.all.flatMap((family) => family.feeds);
  const prices = { tickerUrl: tickers.url, feeds };
  logger.info({ feeds: feeds.length, tickerUrl: tickers.url }, "local price sources ready");
  const stopChains = async (): Promise<void> => {
    await tickers.stop();
    await stopAll(families);
  };

  const appId = randomBytes(32).toString("hex");
  // The solver answers signed quote requests only, as an operator would set it up.
  const quoteSecret = randomBytes(32).toString("hex");
  const solverId = localnetAccount(LOCALNET_ROLES.solver).address.toLowerCase().replace(/^0x/, "");
  const [quotePort, opsPort, servicePort] = [await freePort(), await freePort(), await freePort()];
  const quoteUrl = `http://127.0.0.1:${quotePort}/quote`;
  const serviceConfig = localnetServiceConfig({
    families: families.all,
    port: servicePort,
    dbPath: join(dir, "service.sqlite"),
    appId,
    relayerKey: localnetAccount(LOCALNET_ROLES.relayer).privateKey,
    solver: { id: solverId, quoteUrl, quoteSecret },
  });
  let service: LocalService;
  try {
    service = await (options.startService ?? startLocalService)(serviceConfig, logger);
  } catch (error) {
    await stopChains();
    throw error;
  }
  const solverConfig = localnetSolverConfig({
    families: families.all,
    serviceUrl: service.url,
    appId,
    solverId,
    journalPath: join(dir, "solver.sqlite"),
    quotePort,
    opsPort,
    quoteSecret,
    prices,
  });

  const descriptor: LocalnetDescriptor = {
    service: { url: service.url, appId },
    solver: { id: solverId, quoteUrl, opsUrl: `http://127.0.0.1:${opsPort}`, ...families.solverDescriptor },
    ...families.descriptor,
    users: families.userDescriptors,
    prices: { tickerUrl: tickers.url, feeds: [...feeds] },
  };
  writeDescriptor(join(dir, "localnet.json"), descriptor);

  const localnet: Localnet = {
    ...families.handles,
    descriptor,
    tickers,
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
      await stopChains();
    },
  };
  if (options.startSolver !== false) await localnet.startSolver();
  return localnet;
}

async function stopAll(families: StartedLocalnetFamilies): Promise<void> {
  for (const family of families.all) await family.stop();
}
