/**
 * Wires the ops surface to a running solver: metrics fed by the runner's observer, a probe after each
 * round (tips, inventory), and the HTTP server with /health, /metrics and /status.
 */
import type { Logger } from "pino";
import type { ChainReader } from "../chains/chain.js";
import type { SolverConfig } from "../config/types.js";
import type { Journal } from "../journal/journal.js";
import type { Pricing } from "../pricing/pricing.js";
import { silentObserver, type RunnerObserver } from "../solver/observer.js";
import { statusView, type JournalReader } from "./journal-views.js";
import { SolverMetrics } from "./metrics.js";
import { RoundProbe } from "./round-probe.js";
import { startOpsServer, type OpsServer } from "./server.js";
import { solverHealth, solverLiveness, solverReadiness } from "./solver-health.js";
import { combineObservers, MetricsObserver } from "./solver-observer.js";

/** What the ops surface reads of the runner. */
export interface RoundState {
  readonly lastTickMs: number;
  readonly lastTickError: string | null;
}

export interface SolverOpsOptions {
  config: SolverConfig;
  chains: ReadonlyMap<string, { reader: Pick<ChainReader, "tipHeight"> }>;
  pricing: Pick<Pricing, "inventory" | "describePrices">;
  journal: JournalReader & Pick<Journal, "inFlightByAsset" | "leaseProblem">;
  logger: Logger;
  /** A caller's own observer, told everything the metrics are. */
  observer?: RunnerObserver;
  metrics?: SolverMetrics;
  now?: () => number;
}

export interface SolverOps {
  metrics: SolverMetrics;
  /** Give this to the runner. */
  observer: RunnerObserver;
  probe: RoundProbe;
  /** Starts the HTTP server on config.ops. */
  listen(runner: RoundState): Promise<OpsServer>;
}

export function createSolverOps(options: SolverOpsOptions): SolverOps {
  const { config, logger } = options;
  const now = options.now ?? Date.now;
  const startedMs = now();
  const metrics = options.metrics ?? new SolverMetrics();
  const metricsObserver = new MetricsObserver(metrics);
  const callerObserver = options.observer ?? silentObserver;
  const probe = new RoundProbe({
    chains: options.chains,
    assets: config.chains.flatMap((c) => c.assets.map((a) => a.id)),
    inventory: options.pricing.inventory,
    inFlight: () => options.journal.inFlightByAsset(),
    metrics,
    onTip: (chain, height) => callerObserver.tip(chain, height),
    logger,
    now,
  });
  const roundEnd: RunnerObserver = { ...silentObserver, polled: () => probe.trigger() };
  const observer = combineObservers(metricsObserver, callerObserver, roundEnd);
  const chainNames = config.chains.map((c) => c.name);
  const health = (runner: RoundState) =>
    solverHealth({
      round: { lastTickMs: runner.lastTickMs, lastTickError: runner.lastTickError },
      chains: chainNames,
      tips: probe.tips(),
      pollIntervalMs: config.solver.pollIntervalMs,
      nowMs: now(),
    });
  const live = (runner: RoundState) =>
    solverLiveness({
      round: { lastTickMs: runner.lastTickMs },
      startedMs,
      pollIntervalMs: config.solver.pollIntervalMs,
      nowMs: now(),
    });
  const ready = () =>
    solverReadiness({
      chains: chainNames,
      tips: probe.tips(),
      pollIntervalMs: config.solver.pollIntervalMs,
      nowMs: now(),
      livePrices: options.pricing.describePrices(),
      leaseProblem: options.journal.leaseProblem(now()),
    });
  return {
    metrics,
    observer,
    probe,
    listen: (runner) =>
      startOpsServer({
        host: config.ops.host,
        port: config.ops.port,
        health: () => health(runner),
        live: () => live(runner),
        ready,
        status: () => ({
          solverId: config.solver.id,
          health: health(runner),
          ...statusView(options.journal),
        }),
        registry: metrics.registry,
        logger,
      }),
  };
}
