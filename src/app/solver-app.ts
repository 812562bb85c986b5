import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { dryRunChain } from "../chains/dry-run.js";
import type { PreparedChain } from "../chains/family-module.js";
import { familyOf } from "../chains/registry.js";
import type { SolverConfig } from "../config/types.js";
import { recentBatchSizes } from "../journal/batch-sizes.js";
import { Journal } from "../journal/journal.js";
import { LeaseHeldError, newLeaseHolder, type Acquired, type LeaseHolder } from "../journal/lease.js";
import { PnlStore } from "../journal/pnl-store.js";
import type { SolverMetrics } from "../ops/metrics.js";
import type { OpsServer } from "../ops/server.js";
import { createSolverOps } from "../ops/solver-ops.js";
import { OrderbookClient } from "../orderbook/client.js";
import { CapacityLedger } from "../pricing/capacity-ledger.js";
import type { FeedReader } from "../pricing/live/chainlink-feed.js";
import type { OrderAmounts } from "../pricing/order-check.js";
import { createPricing, type Pricing } from "../pricing/pricing.js";
import { refusalOutcome } from "../pricing/refusal.js";
import { startQuoteThread, type QuoteThread } from "../pricing/quote-thread/quote-thread.js";
import { feeAssets } from "../pnl/fee-assets.js";
import { PnlMetrics } from "../pnl/pnl-metrics.js";
import { PnlRecorder } from "../pnl/recorder.js";
import { indexAssets } from "../pricing/assets.js";
import type { RunnerObserver } from "../solver/observer.js";
import type { QuoteCheck } from "../solver/plan-types.js";
import { Runner } from "../solver/runner.js";
import { sameTurn } from "../util/same-turn.js";
import { withServiceAddresses } from "./service-addresses.js";

export interface SolverApp {
  journal: Journal;
  runner: Runner;
  pricing: Pricing;
  chains: ReadonlyMap<string, PreparedChain>;
  /** The quote endpoint, on its own thread. */
  quoteServer: QuoteThread;
  /** /health, /metrics and /status on config.ops. */
  opsServer: OpsServer;
  metrics: SolverMetrics;
  /** Puts a reloaded configuration's pricing parts in force (see reloadable.ts); the rest stays as started. */
  reconfigure(config: SolverConfig): Promise<void>;
  /** Rejects when the solver must stop at once: another instance took its journal lease over. */
  fatal: Promise<never>;
  stop(): Promise<void>;
}

export interface SolverAppOptions {
  /** Reads and decides as usual; signs and sends nothing (src/chains/dry-run.ts). */
  dryRun?: boolean;
}

/** Builds every part from a validated config and starts the quote endpoint, the ops server and the solver loop. */
export async function startSolverApp(
  profile: SolverConfig,
  logger: Logger,
  observer?: RunnerObserver,
  options: SolverAppOptions = {},
): Promise<SolverApp> {
  // Addresses left to the service are read and checked on chain before anything else starts.
  const config = await withServiceAddresses(
    profile,
    new OrderbookClient({ baseUrl: profile.service.url, appId: profile.service.appId }),
  );
  // The tolerance is read at each check: a reload may change it.
  let priceToleranceBps = config.safety.priceToleranceBps;
  const journal = new Journal(config.journal.path);
  const lease = await holdLease(journal, config.solver.leaseTtlMs, logger);
  const chains = new Map<string, PreparedChain>();
  for (const chainConfig of config.chains) {
    const family = familyOf(chainConfig.family);
    const key = config.solver.keys[chainConfig.family];
    const chain = family.create({ config: chainConfig, key, journal, logger });
    chains.set(chainConfig.name, options.dryRun === true ? dryRunChain(chain, logger) : chain);
  }
  const chainOfAsset = (assetId: string): PreparedChain => {
    const chain = chains.get(assetId.split(":")[0] ?? "");
    if (!chain) throw new Error(`asset ${assetId} is on no configured chain`);
    return chain;
  };
  const balances = { balance: (assetId: string) => chainOfAsset(assetId).executor.balance(assetId) };
  // Quotes share the journal's sums within a turn of the event loop (a quote is advisory: the fill gate
  // reads the journal itself before money moves); read per quote and per asset they were a fifth of the
  // solver's CPU in a burst of a thousand quotes.
  const plannedForQuotes = sameTurn(() => journal.plannedFillsByAsset());
  const inFlightForQuotes = sameTurn(() => journal.inFlightByAsset());
  const pricing = createPricing(config, {
    balances,
    committed: (assetId) => plannedForQuotes().get(assetId) ?? 0n,
    inFlight: (assetId) => inFlightForQuotes().get(assetId) ?? 0n,
    feeEstimators: [...chains.values()].map((chain) => chain.executor),
    batchSizes: (sinceMs) => recentBatchSizes(journal.database, sinceMs),
    feedReader: feedReaders(config),
    logger: logger.child({ component: "prices" }),
  });
  // Read from pricing at each opening: a reload may change limits, floors and prices.
  const openLedger = (assetIds: readonly string[]) =>
    CapacityLedger.open(
      {
        balances,
        plannedFills: () => journal.plannedFillsByAsset(),
        inFlight: () => journal.inFlightByAsset(),
        floors: pricing.deps.limits.inventoryFloor,
        prices: pricing.deps.prices.byAsset,
        assets: pricing.deps.assets,
        feeCoins: pricing.deps.feeCoins,
        limits: pricing.deps.limits,
        priceAt: async (order, holding) => {
          const verdict = await pricing.checkOrderPrice(order, priceToleranceBps, holding);
          return verdict.ok ? undefined : verdict;
        },
      },
      assetIds,
    );
  // Each chain's start-up transactions are its own account's: the chains prepare side by side.
  await Promise.all([...chains.values()].map((chain) => chain.prepare()));
  // Quotes read prices from memory only: the sources answer once before the quote endpoint opens.
  await pricing.start();

  const checkQuote = async (amounts: OrderAmounts): Promise<QuoteCheck> => {
    const verdict = await pricing.checkOrder(amounts, priceToleranceBps);
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
  const assets = indexAssets(config.chains);
  const pnl = new PnlRecorder({
    journal,
    store: new PnlStore(journal.database),
    decimalsOf: (assetId) => {
      const asset = assets.get(assetId);
      if (asset === undefined) throw new Error(`asset ${assetId} of a settled order is not configured`);
      return asset.decimals;
    },
    feeAssetOf: feeAssets(config.chains),
    valuation: (assetId) => pricing.valuation(assetId),
    metrics: new PnlMetrics(ops.metrics.registry),
    logger: logger.child({ component: "pnl" }),
  });
  // A clean stop ends the service requests in flight rather than waiting out their timeouts and retries.
  const serviceStop = new AbortController();
  const runner = new Runner({
    settlement: pnl,
    journal,
    orderbook: new OrderbookClient({
      baseUrl: config.service.url,
      appId: config.service.appId,
      stopSignal: serviceStop.signal,
    }),
    chains,
    checkQuote,
    openLedger,
    // Read at each use: a reload may replace the price sources.
    prices: { usdPrice: (assetId) => pricing.deps.prices.byAsset.usdPrice(assetId) },
    safety: config.safety,
    pollIntervalMs: config.solver.pollIntervalMs,
    watchIntervalMs: config.solver.watchIntervalMs,
    concurrency: config.solver.orderConcurrency,
    logger,
    observer: ops.observer,
  });
  // The endpoint runs on a thread of its own, from snapshots of what quoting reads: a flood of requests
  // costs this thread, which fills, nothing per request.
  const quoteServer = await startQuoteThread({
    endpoint: {
      host: config.quote.host,
      port: config.quote.port,
      listenBacklog: config.quote.listenBacklog,
      keepAliveTimeoutMs: config.quote.keepAliveTimeoutMs,
      auth: config.quote.auth,
      limits: config.quote.limits,
    },
    secretLengths: new Map([...chains].map(([name, chain]) => [name, chain.reader.secretLength])),
    allowUnenforcedSecretLength: config.safety.allowUnenforcedSecretLength,
    snapshot: (balanceWaitMs) => pricing.quoteSnapshot(balanceWaitMs),
    metrics: (batch) => ops.metrics.recordQuoteBatch(batch),
    logger,
  });
  ops.metrics.collectQuotesWith(() => quoteServer.flushMetrics());
  let opsServer: OpsServer;
  try {
    opsServer = await ops.listen(runner);
  } catch (error) {
    await quoteServer.stop();
    await pricing.stop();
    journal.close();
    throw error;
  }
  runner.start();
  logger.info(
    {
      quoteUrl: quoteServer.url,
      opsUrl: opsServer.url,
      chains: [...chains.keys()],
      ...(options.dryRun === true ? { dryRun: true } : {}),
    },
    options.dryRun === true ? "solver started in dry run: nothing is signed or sent" : "solver started",
  );
  return {
    journal,
    runner,
    pricing,
    chains,
    quoteServer,
    opsServer,
    metrics: ops.metrics,
    reconfigure: async (next) => {
      await pricing.reload(next);
      priceToleranceBps = next.safety.priceToleranceBps;
      await quoteServer.refresh();
    },
    fatal: lease.lost,
    stop: async () => {
      lease.stop();
      serviceStop.abort(new Error("the solver is stopping"));
      await runner.stop();
      await ops.probe.idle();
      await opsServer.stop();
      await quoteServer.stop();
      await pricing.stop();
      journal.releaseLease();
      journal.close();
    },
  };
}

/** Past a lease's deadline before taking it: the holder's last renewal may still be on its way to disk. */
const LEASE_DEADLINE_MARGIN_MS = 250;

/**
 * Takes the journal's lease (refusing to start beside another live solver) and renews it a few times per
 * lease period. Losing it is fatal: `lost` rejects, and the caller stops the solver; the journal refuses
 * every claim and signature of this instance from that moment anyway.
 */
async function holdLease(
  journal: Journal,
  ttlMs: number,
  logger: Logger,
): Promise<{ lost: Promise<never>; stop(): void }> {
  const me = newLeaseHolder(hostname(), process.pid);
  let tookOverFrom: LeaseHolder | null;
  try {
    ({ tookOverFrom } = await acquireAtDeadline(journal, me, ttlMs, logger));
  } catch (error) {
    journal.close();
    throw error;
  }
  if (tookOverFrom !== null)
    logger.warn({ previous: tookOverFrom }, "took over the journal lease of a solver that stopped");
  let fail: (error: Error) => void = () => undefined;
  const lost = new Promise<never>((_resolve, reject) => (fail = reject));
  lost.catch(() => undefined);
  const timer = setInterval(
    () => {
      try {
        journal.renewLease();
      } catch (error) {
        clearInterval(timer);
        logger.fatal({ err: error }, "journal lease lost");
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    },
    Math.max(250, Math.floor(ttlMs / 4)),
  );
  timer.unref();
  return { lost, stop: () => clearInterval(timer) };
}

/**
 * Takes the lease, or, when another instance holds it, waits once for its deadline and tries again: a
 * solver restarted after a crash finds its own last lease there, with nothing to tell it that lease's
 * process is gone. A holder that renewed it meanwhile is alive: then LeaseHeldError, and no start.
 */
async function acquireAtDeadline(
  journal: Journal,
  me: LeaseHolder,
  ttlMs: number,
  logger: Logger,
): Promise<Acquired> {
  try {
    return journal.acquireLease(me, ttlMs);
  } catch (error) {
    if (!(error instanceof LeaseHeldError)) throw error;
    const waitMs = Math.max(0, error.deadlineMs - Date.now()) + LEASE_DEADLINE_MARGIN_MS;
    logger.warn(
      { holder: error.holder, deadline: new Date(error.deadlineMs).toISOString(), waitMs },
      "the journal lease is held by another instance; waiting for its deadline",
    );
    await sleep(waitMs);
    return journal.acquireLease(me, ttlMs);
  }
}

/** Price feeds are read through the solver's own RPC URLs of their chain, one client per chain. */
function feedReaders(config: SolverConfig): (chain: string) => FeedReader {
  const readers = new Map<string, FeedReader>();
  return (name) => {
    const known = readers.get(name);
    if (known) return known;
    const chain = config.chains.find((c) => c.name === name);
    const reader = chain === undefined ? undefined : familyOf(chain.family).priceFeedReader?.(chain);
    if (reader === undefined) throw new Error(`price feed on ${name}, which is not a configured EVM chain`);
    readers.set(name, reader);
    return reader;
  };
}
