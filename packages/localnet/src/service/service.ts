/**
 * The local implementation of the service API: startLocalService(config) serves the HTTP API, watches
 * the chains and relays initiates and redeems, like the live service does.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino, type Logger } from "pino";
import type { Hex } from "viem";
import { familyOfChain } from "../families/registry.js";
import type { ServiceChain } from "./chains/service-chain.js";
import {
  DEFAULT_DEADLINES,
  DEFAULT_QUOTE_TIMEOUT_MS,
  validateLocalServiceConfig,
  type LocalServiceConfig,
} from "./config.js";
import type { ServiceContext } from "./context.js";
import { createApiServer } from "./http/server.js";
import { Registry } from "./registry.js";
import { serviceRoutes } from "./routes/index.js";
import { openServiceDb } from "./store/db.js";
import { KeyStore } from "./store/key-store.js";
import { OrderStore } from "./store/order-store.js";
import { RelayStore } from "./store/relay-store.js";
import { WatchLoop } from "./watch-loop.js";
import { listen } from "htlc-solver/util/listen.js";

export interface LocalService {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  stop(): Promise<void>;
}

export async function startLocalService(config: LocalServiceConfig, logger?: Logger): Promise<LocalService> {
  validateLocalServiceConfig(config);
  const log = (logger ?? pino({ level: "info" })).child({ component: "local-service" });
  const db = openServiceDb(config.dbPath);
  const keys = new KeyStore(db);
  const chains = new Map<string, ServiceChain>(
    config.chains.map((chain) => [
      chain.name,
      familyOfChain(chain).createServiceChain(chain, {
        relayerPrivateKey: config.relayerPrivateKey as Hex,
        keys,
      }),
    ]),
  );
  const ctx: ServiceContext = {
    config,
    deadlines: { ...DEFAULT_DEADLINES, ...config.deadlines },
    quoteTimeoutMs: config.quoteTimeoutMs ?? DEFAULT_QUOTE_TIMEOUT_MS,
    registry: new Registry(config.chains, config.solvers),
    chains,
    orders: new OrderStore(db),
    relays: new RelayStore(db),
    logger: log,
    now: () => Date.now(),
    initiating: new Set(),
    refunding: new Set(),
  };
  const server = createApiServer(serviceRoutes(ctx), config.appIds, log);
  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    db.close();
    throw error;
  }
  const loop = new WatchLoop(ctx);
  loop.start();
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  log.info({ url, chains: [...chains.keys()] }, "local service listening");

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all([closeServer(server), loop.stop()]);
      await Promise.all([...chains.values()].map((chain) => chain.close()));
      db.close();
    })();
    return stopping;
  };
  return { url, stop };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
