import PQueue from "p-queue";
import type { Logger } from "pino";
import type { ActionKind, ActionRequest } from "../chains/chain.js";
import type { SafetyConfig } from "../config/types.js";
import type { ActionStatus, Journal } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { Order, OrderStatus } from "../orderbook/types.js";
import { batchActions, executeBatch, type ExecutionContext } from "./action-executor.js";
import { followAttempts } from "./attempt-follower.js";
import { chainOf, sideFacts, UnsupportedChainError } from "./facts.js";
import type { RunnerObserver } from "./observer.js";
import { silentObserver } from "./observer.js";
import type { QuoteCheck } from "./plan-types.js";
import { plan } from "./planner.js";
import type { ChainRegistry } from "./solver-chain.js";

/** Statuses in which an order may still need the solver; terminal ones are followed only through the journal. */
const OPEN_STATUSES: OrderStatus[] = [
  "Created",
  "InitiateDetected",
  "Initiated",
  "AwaitingRedeem",
  "RedeemDetected",
];

export interface RunnerOptions {
  journal: Journal;
  orderbook: OrderbookClient;
  chains: ChainRegistry;
  /** Pricing's verdict on filling the order now (amounts, limits, inventory). */
  checkQuote: (order: Order) => Promise<QuoteCheck>;
  safety: SafetyConfig;
  pollIntervalMs: number;
  logger: Logger;
  observer?: RunnerObserver;
  /** Journals a settled order's profit and loss (src/pnl/recorder.ts); never throws. */
  settlement?: { recordSettlement(orderId: string): Promise<void> };
  /** Orders processed at once. */
  concurrency?: number;
  now?: () => number;
}

/** The solver's main loop: discover orders, decide with the planner, act through the executors. */
export class Runner {
  private readonly observer: RunnerObserver;
  private readonly queue: PQueue;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  lastTickMs = 0;
  lastTickError: string | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.observer = options.observer ?? silentObserver;
    this.queue = new PQueue({ concurrency: options.concurrency ?? 8 });
    this.now = options.now ?? Date.now;
  }

  /** Re-broadcasts what the journal holds, then polls until stopped. */
  start(): void {
    this.stopped = false;
    const loop = async (): Promise<void> => {
      if (this.stopped) return;
      this.running = this.tick();
      await this.running;
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.options.pollIntervalMs);
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.queue.onIdle();
  }

  /** One round. Errors are logged and counted, never allowed to end the loop. */
  async tick(): Promise<void> {
    const { logger, chains } = this.options;
    try {
      await followAttempts(chains, this.context(), this.now());
      const orders = await this.discover();
      const planned = await Promise.all(
        orders.map((order) => this.queue.add(() => this.processOrder(order))),
      );
      await this.execute(planned.flat());
      this.lastTickError = null;
    } catch (error) {
      this.lastTickError = error instanceof Error ? error.message : String(error);
      logger.error({ err: error }, "solver round failed");
    }
    this.lastTickMs = this.now();
    this.observer.polled(this.lastTickMs);
  }

  private context(): ExecutionContext {
    const { journal, orderbook, logger } = this.options;
    return {
      journal,
      orderbook,
      observer: this.observer,
      logger,
      urgencyMarginMs: this.options.safety.redeemDeadlineMarginMs,
    };
  }

  /** Carries out one round's actions, batched per chain and kind where the chain allows it. */
  private async execute(requests: ActionRequest[]): Promise<void> {
    const { chains } = this.options;
    const batches = batchActions(requests, (chain) => chains.get(chain)?.executor.maxBatch ?? 1);
    await Promise.all(
      batches.map((batch) => {
        const chain = chains.get(batch[0]?.params.chain ?? "");
        return chain ? this.queue.add(() => executeBatch(batch, chain, this.context())) : undefined;
      }),
    );
  }

  /** New orders naming our addresses, plus every order the journal still follows, read fresh by id. */
  private async discover(): Promise<Order[]> {
    const { orderbook, journal, logger, chains } = this.options;
    const parties = new Set([...chains.values()].map((c) => c.party));
    const byId = new Map<string, Order>();
    for (const address of parties) {
      const { orders, malformed } = await orderbook.listAllOrders({
        address,
        status: OPEN_STATUSES.join(","),
      });
      for (const problem of malformed)
        logger.error({ err: problem }, "service sent a malformed order; skipped");
      for (const order of orders) byId.set(order.order_id, order);
    }
    for (const orderId of journal.activeOrderIds()) {
      if (byId.has(orderId)) continue;
      try {
        byId.set(orderId, await orderbook.getOrder(orderId));
      } catch (error) {
        logger.warn({ err: error, orderId }, "could not refresh a journaled order");
      }
    }
    return [...byId.values()];
  }

  /** Reads both chains, asks the planner, and returns the actions to take for this order now. */
  private async processOrder(order: Order): Promise<ActionRequest[]> {
    const { journal, logger, chains } = this.options;
    const log = logger.child({ orderId: order.order_id });
    if (!journal.isKnownOrder(order.order_id)) this.observer.orderSeen(order.order_id);
    journal.upsertOrder(order, this.now());
    try {
      const [source, destination] = await Promise.all([
        sideFacts(chains, order, "source", log),
        sideFacts(chains, order, "destination", log),
      ]);
      const actions = this.actionStatuses(order.order_id);
      const needsQuote =
        actions.fill === undefined && destination.state !== null && !destination.state.initiated;
      const destinationChain = chainOf(chains, order, "destination");
      const result = plan({
        order,
        nowMs: this.now(),
        source,
        destination,
        actions,
        quoteCheck: needsQuote ? await this.options.checkQuote(order) : null,
        safety: this.options.safety,
        maxDestinationTimelock: BigInt(destinationChain.config.fillTimelockBlocks),
      });
      if (result.decision)
        this.recordDecision(
          order.order_id,
          result.decision.outcome,
          result.decision.reason,
          result.decision.detail,
          log,
        );
      if (result.done) {
        journal.markOrderDone(order.order_id);
        await this.options.settlement?.recordSettlement(order.order_id);
        log.info("order settled; no longer followed");
      }
      return result.actions;
    } catch (error) {
      if (error instanceof UnsupportedChainError) {
        this.recordDecision(order.order_id, "refuse", "unsupported_asset", error.message, log);
        return [];
      }
      this.recordDecision(
        order.order_id,
        "refuse",
        "order_unusable",
        error instanceof Error ? error.message : String(error),
        log,
      );
      return [];
    }
  }

  private actionStatuses(orderId: string): Partial<Record<ActionKind, ActionStatus>> {
    const statuses: Partial<Record<ActionKind, ActionStatus>> = {};
    for (const action of this.options.journal.orderActions(orderId)) statuses[action.kind] = action.status;
    return statuses;
  }

  private recordDecision(
    orderId: string,
    outcome: "refuse" | "wait",
    reason: string,
    detail: string,
    log: Logger,
  ): void {
    const changed = this.options.journal.recordDecision(orderId, outcome, reason, detail, this.now());
    if (!changed) return;
    this.observer.decision(outcome, reason);
    if (outcome === "refuse") log.warn({ reason, detail }, "refusing to fill");
    else log.info({ reason, detail }, "not filling yet");
  }
}
