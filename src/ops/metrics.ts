/**
 * The solver's Prometheus metrics, on a registry of their own so that tests and several instances in
 * one process never collide. Amount gauges are in smallest units: float precision is enough to watch.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { QuoteMetricsBatch } from "../pricing/quote-thread/metrics-batch.js";
import type { ActionOutcome } from "../solver/observer.js";

export type { ActionOutcome };

export interface SolverMetricsOptions {
  /** Prefix of every metric name; `solver_` by default. */
  prefix?: string;
  /** Process metrics (CPU, memory, event loop lag); on by default. */
  processMetrics?: boolean;
}

export class SolverMetrics {
  readonly registry = new Registry();
  readonly ordersSeen: Counter;
  readonly actions: Counter<"chain" | "kind" | "outcome">;
  readonly refusals: Counter<"reason">;
  readonly decisions: Counter<"outcome" | "reason">;
  readonly txAttempts: Counter<"chain" | "state">;
  readonly inventory: Gauge<"asset">;
  readonly inFlight: Gauge<"asset">;
  readonly chainTip: Gauge<"chain">;
  readonly lastPoll: Gauge;
  readonly actionDuration: Histogram<"kind">;
  readonly quoteDuration: Histogram<"outcome">;
  readonly quoteRejections: Counter<"outcome" | "reason">;
  /** Brings in what the quote thread has gathered, before quote metrics are read. */
  private quoteCollector: (() => Promise<void>) | null = null;

  constructor(options: SolverMetricsOptions = {}) {
    const prefix = options.prefix ?? "solver_";
    const registers = [this.registry];
    this.ordersSeen = new Counter({
      name: `${prefix}orders_seen_total`,
      help: "Orders read from the service that name this solver.",
      registers,
    });
    this.actions = new Counter({
      name: `${prefix}actions_total`,
      help: "Chain actions (fill, redeem, refund, instant_refund) by outcome.",
      labelNames: ["chain", "kind", "outcome"],
      registers,
    });
    this.refusals = new Counter({
      name: `${prefix}refusals_total`,
      help: "Orders the solver declined to act on, by reason.",
      labelNames: ["reason"],
      registers,
    });
    this.decisions = new Counter({
      name: `${prefix}decisions_total`,
      help: "Changes of an order's decision (refuse or wait), by outcome and reason.",
      labelNames: ["outcome", "reason"],
      registers,
    });
    this.txAttempts = new Counter({
      name: `${prefix}tx_attempts_total`,
      help: "Signed transactions by the state they reached (broadcast, confirmed, replaced, failed).",
      labelNames: ["chain", "state"],
      registers,
    });
    this.inventory = new Gauge({
      name: `${prefix}inventory`,
      help: "Wallet balance per asset, smallest units.",
      labelNames: ["asset"],
      registers,
    });
    this.inFlight = new Gauge({
      name: `${prefix}in_flight`,
      help: "Amount filled and not yet redeemed or refunded per asset, smallest units.",
      labelNames: ["asset"],
      registers,
    });
    this.chainTip = new Gauge({
      name: `${prefix}chain_tip`,
      help: "Latest block height (slot on Solana) seen per chain.",
      labelNames: ["chain"],
      registers,
    });
    this.lastPoll = new Gauge({
      name: `${prefix}last_poll_timestamp_seconds`,
      help: "Unix time of the last successful poll of the service.",
      registers,
    });
    this.actionDuration = new Histogram({
      name: `${prefix}action_duration_seconds`,
      help: "Time from deciding an action to its confirmation.",
      labelNames: ["kind"],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    });
    this.quoteDuration = new Histogram({
      name: `${prefix}quote_duration_seconds`,
      help: "Time from a quote request reaching the solver's handler to its answer, by outcome (given, refused, bad_request, error).",
      labelNames: ["outcome"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
      collect: () => this.collectQuotes(),
    });
    this.quoteRejections = new Counter({
      name: `${prefix}quote_rejections_total`,
      help: "Quote requests answered without a quote, by outcome and reason (a refusal's reason code).",
      labelNames: ["outcome", "reason"],
      registers,
      collect: () => this.collectQuotes(),
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix });
  }

  /** Counts one action and, when it finished, how long it took. */
  recordAction(chain: string, kind: string, outcome: ActionOutcome, durationSeconds?: number): void {
    this.actions.inc({ chain, kind, outcome });
    if (durationSeconds !== undefined) this.actionDuration.observe({ kind }, durationSeconds);
  }

  setInventory(asset: string, amount: bigint): void {
    this.inventory.set({ asset }, Number(amount));
  }

  setInFlight(asset: string, amount: bigint): void {
    this.inFlight.set({ asset }, Number(amount));
  }

  setChainTip(chain: string, height: bigint): void {
    this.chainTip.set({ chain }, Number(height));
  }

  /** Records what the quote thread gathered since its last batch: each request's time, and refusals by reason. */
  recordQuoteBatch(batch: QuoteMetricsBatch): void {
    for (const [outcome, seconds] of batch.durations) {
      for (const value of seconds) this.quoteDuration.observe({ outcome }, value);
    }
    for (const [outcome, reasons] of batch.rejections) {
      for (const [reason, count] of reasons) this.quoteRejections.inc({ outcome, reason }, count);
    }
  }

  /** Asked before each read of the quote metrics, so that they include every request answered until then. */
  collectQuotesWith(collector: () => Promise<void>): void {
    this.quoteCollector = collector;
  }

  private async collectQuotes(): Promise<void> {
    await this.quoteCollector?.();
  }

  markPoll(at: Date = new Date()): void {
    this.lastPoll.set(Math.floor(at.getTime() / 1000));
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
