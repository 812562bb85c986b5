/**
 * The configured chains opened for a command that reads them or sends one transaction by hand: each
 * family's reader and executor over the journal, as the daemon builds them, without its start-up work
 * (no approvals are sent, no index is warmed).
 */
import type { PreparedChain } from "../chains/family-module.js";
import { familyOf } from "../chains/registry.js";
import type { SolverConfig } from "../config/types.js";
import { Journal } from "../journal/journal.js";
import { pino } from "pino";
import { createLogger, type Logger } from "../util/logger.js";

export interface ChainSession {
  config: SolverConfig;
  journal: Journal;
  chains: ReadonlyMap<string, PreparedChain>;
  logger: Logger;
  close(): void;
}

/** Logs of the chains' clients go to stderr, so that stdout holds the command's answer alone. */
function stderrLogger(config: SolverConfig): Logger {
  return createLogger({ level: config.log.level, destination: pino.destination({ dest: 2, sync: true }) });
}

/**
 * Opens the configuration's journal, creating it where the solver has not run yet (a withdrawal before
 * the first run is journaled where the solver will find it), and every chain. `logger` defaults to JSON
 * lines on stderr.
 */
export function openChainSession(config: SolverConfig, logger: Logger = stderrLogger(config)): ChainSession {
  const journal = new Journal(config.journal.path);
  const chains = new Map<string, PreparedChain>();
  try {
    for (const chain of config.chains) {
      const key = config.solver.keys[chain.family];
      chains.set(chain.name, familyOf(chain.family).create({ config: chain, key, journal, logger }));
    }
  } catch (error) {
    journal.close();
    throw error;
  }
  return { config, journal, chains, logger, close: () => journal.close() };
}

/** Runs `work` in a session and closes it afterwards. */
export async function withChainSession<T>(
  config: SolverConfig,
  work: (session: ChainSession) => Promise<T>,
): Promise<T> {
  const session = openChainSession(config);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}
