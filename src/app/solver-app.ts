import type { Logger } from "pino";
import { createChain, type PreparedChain } from "../chains/families.js";
import type { SolverConfig } from "../config/types.js";
import { Journal } from "../journal/journal.js";
import type { SolverMetrics } from "../ops/metrics.js";
import type { OpsServer } from "../ops/server.js";
import { createSolverOps } from "../ops/solver-ops.js";
import { OrderbookClient } from "../orderbook/client.js";
import type { Order } from "../orderbook/types.js";
import { CapacityLedger } from "../pricing/capacity-ledger.js";
import { createPricing, type Pricing } from "../pricing/pricing.js";
import { refusalOutcome } from "../pricing/refusal.js";
import { startQuoteServer, type QuoteServer } from "../pricing/quote-server.js";
import type { RunnerObserver } from "../solver/observer.js";
import type { QuoteCheck } from "../solver/plan-types.js";
import { Runner } from "../solver/runner.js";

export interface SolverApp {
  journal: Journal;
  runner: Runner;
  pricing: Pricing;
  chains: ReadonlyMap<string, PreparedChain>;
  quoteServer: QuoteServer;
  /** /health, /metrics and /status on config.ops. */
  opsServer: OpsServer;
  metrics: SolverMetrics;
  stop(): Promise<void>;
}

/** Builds every part from a validated config and starts the quote endpoint, the ops server and the solver loop. */
export async function startSolverApp(
  config: SolverConfig,
  logger: Logger,
  observer?: RunnerObserver,
): Promise<SolverApp> {
  const journal = new Journal(config.journal.path);
  const chains = new Map<string, PreparedChain>();
  for (const chainConfig of config.chains) {
    chains.set(chainConfig.name, createChain(chainConfig, config.solver.keys, journal, logger));
  }
  const chainOfAsset = (assetId: string): PreparedChain => {
    const chain = chains.get(assetId.split(":")[0] ?? "");
    if (!chain) throw new Error(`asset ${assetId} is on no configured chain`);
    return chain;
  };
  const balances = { balance: (assetId: string) => chainOfAsset(assetId).executor.balance(assetId) };
  const pricing = createPricing(config, {
    balances,
    committed: (assetId) => journal.plannedFillsByAsset().get(assetId) ?? 0n,
    inFlight: (assetId) => journal.inFlightByAsset().get(assetId) ?? 0n,
  });
  const openLedger = (assetIds: readonly string[]) =>
    CapacityLedger.open(
      {
        balances,
        plannedFills: () => journal.plannedFillsByAsset(),
        inFlight: () => journal.inFlightByAsset(),
        floors: config.limits.inventoryFloor,
        prices: pricing.deps.prices,
        assets: pricing.deps.assets,
        limits: config.limits,
      },
      assetIds,
    );
  for (const chain of chains.values()) await chain.prepare();

  const checkQuote = async (order: Order): Promise<QuoteCheck> => {
    const verdict = await pricing.checkOrder(
      {
        fromAsset: order.source_swap.asset,
        toAsset: order.destination_swap.asset,
        fromAmount: BigInt(order.source_swap.amount),
        toAmount: BigInt(order.destination_swap.amount),
      },
      config.safety.priceToleranceBps,
    );
    if (verdict.ok) return { ok: true };
    return {
      ok: false,
      outcome: refusalOutcome(verdict.reason),
      reason: verdict.reason,
      detail: verdict.message,
    };
  };
  const ops = createSolverOps({
    config,
    chains,
    pricing,
    journal,
    logger,
    ...(observer ? { observer } : {}),
  });
  const runner = new Runner({
    journal,
    orderbook: new OrderbookClient({ baseUrl: config.service.url, appId: config.service.appId }),
    chains,
    checkQuote,
    openLedger,
    safety: config.safety,
    pollIntervalMs: config.solver.pollIntervalMs,
    logger,
    observer: ops.observer,
  });
  const quoteServer = await startQuoteServer({
    host: config.quote.host,
    port: config.quote.port,
    quote: pricing.quote,
    logger,
  });
  let opsServer: OpsServer;
  try {
    opsServer = await ops.listen(runner);
  } catch (error) {
    await quoteServer.stop();
    journal.close();
    throw error;
  }
  runner.start();
  logger.info(
    { quoteUrl: quoteServer.url, opsUrl: opsServer.url, chains: [...chains.keys()] },
    "solver started",
  );
  return {
    journal,
    runner,
    pricing,
    chains,
    quoteServer,
    opsServer,
    metrics: ops.metrics,
    stop: async () => {
      await runner.stop();
      await ops.probe.idle();
      await opsServer.stop();
      await quoteServer.stop();
      journal.close();
    },
  };
}
