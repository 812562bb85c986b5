/**
 * The solver's lifecycle: the parts wired together, the round and the scout repeated, the chain watch
 * started, and every part stopped in order. The flow of an order is in docs/how-the-solver-decides.md.
 */
import type { Logger } from "pino";
import { Repeat } from "../util/repeat.js";
import { ChainWatch } from "./chain-watch.js";
import { DecisionLog } from "./decision-log.js";
import { Dispatcher } from "./dispatcher.js";
import { executionContext } from "./execution-context.js";
import type { RoundTip } from "./facts.js";
import { FillGate } from "./fill-gate.js";
import { FillSafety } from "./fill-safety.js";
import { ListingRound } from "./listing-round.js";
import { silentObserver, type RunnerObserver } from "./observer.js";
import { OrderDiscovery } from "./order-discovery.js";
import { OrderFacts } from "./order-facts.js";
import { laneOf, OrderInbox, type OrderAsk, type Stream } from "./order-inbox.js";
import { OrderPass } from "./order-pass.js";
import { announceReads, freshestTip } from "./round-tips.js";
import type { RunnerOptions } from "./runner-options.js";
import { WatchedOrders } from "./watched-orders.js";

export type { RunnerOptions } from "./runner-options.js";

export class Runner {
  private readonly observer: RunnerObserver;
  private readonly logger: Logger;
  private readonly watched = new WatchedOrders();
  private readonly inbox: OrderInbox;
  private readonly dispatcher: Dispatcher;
  private readonly discovery: OrderDiscovery;
  private readonly round: ListingRound;
  private readonly watch: ChainWatch | null;
  private readonly rounds: Repeat;
  private readonly scouting: Repeat;
  /** Passes beside the round (new blocks, new orders, orders asked for again); stop awaits them. */
  private readonly beside = new Set<Promise<void>>();
  lastTickMs = 0;
  lastTickError: string | null = null;

  constructor(private readonly options: RunnerOptions) {
    const { journal, chains, safety, logger } = options;
    const now = options.now ?? Date.now;
    const concurrency = options.concurrency ?? 8;
    this.observer = options.observer ?? silentObserver;
    this.logger = logger;
    const decisions = new DecisionLog(journal, this.observer, logger, now);
    const facts = new OrderFacts(chains, safety, now);
    const fillSafety = new FillSafety(journal, facts, logger, now);
    const context = executionContext({ ...options, observer: this.observer, fillSafety, now });
    const pass = new OrderPass({ ...options, facts, decisions, watched: this.watched });
    this.inbox = new OrderInbox({
      concurrency,
      pass,
      askAgain: (asks) => this.alongside(this.passBeside(asks, "block", new Map())),
    });
    const gate = new FillGate({ journal, openLedger: options.openLedger, now });
    this.dispatcher = new Dispatcher({
      ...options,
      gate,
      decisions,
      context,
      concurrency,
      onOut: (orderIds) => this.inbox.letGo(orderIds),
      now,
    });
    this.watch =
      options.watchIntervalMs === undefined
        ? null
        : new ChainWatch({
            chains,
            intervalMs: options.watchIntervalMs,
            ordersAt: (chain, swapIds) => this.watched.ordersAt(chain, swapIds),
            follows: (chain) => this.watched.follows(chain),
            waitingOn: (chain, only) => this.watched.waitingOn(chain, only),
            wake: (orderIds, tips) =>
              this.alongside(this.passBeside(this.watchedAsks(orderIds), "block", tips)),
            logger: logger.child({ component: "chain-watch" }),
            now,
          });
    this.discovery = new OrderDiscovery({ ...options, observer: this.observer, now, concurrency });
    const { inbox, dispatcher, discovery, watch } = this;
    this.round = new ListingRound({
      journal,
      chains,
      discovery,
      inbox,
      dispatcher,
      context,
      watch,
      logger,
      now,
    });
    this.rounds = new Repeat(() => this.tick(), options.pollIntervalMs);
    this.scouting = new Repeat(() => this.scout(), options.pollIntervalMs);
  }

  start(): void {
    this.watch?.start();
    this.rounds.start();
    // The scout only serves the watch: without it, new orders wait for the round.
    if (this.watch !== null) this.scouting.start(this.options.pollIntervalMs);
  }

  async stop(): Promise<void> {
    this.inbox.close();
    await Promise.all([this.rounds.stop(), this.scouting.stop(), this.watch?.stop()]);
    await Promise.all([...this.beside]);
    await this.inbox.onIdle();
    await this.dispatcher.finish();
  }

  /** One round. Errors are logged and kept, never allowed to end the loop. */
  async tick(): Promise<void> {
    try {
      await this.round.run();
      this.lastTickError = null;
    } catch (error) {
      this.lastTickError = error instanceof Error ? error.message : String(error);
      this.logger.error({ err: error }, "solver round failed");
    }
    this.lastTickMs = (this.options.now ?? Date.now)();
    this.observer.polled(this.lastTickMs);
  }

  /** New orders awaiting a fill, passed over as soon as listed, beside the next listings. */
  private async scout(): Promise<void> {
    const orders = await this.discovery.scout();
    const asks = orders.map((o) => ({
      orderId: o.order_id,
      lane: laneOf(o.source_swap.chain, o.destination_swap.chain),
    }));
    // Not awaited: a burst of new orders' first passes (a Bitcoin side's reads take seconds under load)
    // held up the next look for new orders, and orders were first seen 7 s after they were listed.
    if (asks.length > 0) this.alongside(this.passBeside(asks, "scout", new Map()));
  }

  /** The lanes of orders the watch names; one forgotten since (settled) is left out. */
  private watchedAsks(orderIds: readonly string[]): OrderAsk[] {
    return orderIds.flatMap((orderId) => {
      const sides = this.watched.sidesOf(orderId);
      return sides === undefined
        ? []
        : [{ orderId, lane: laneOf(sides.source.chain, sides.destination.chain) }];
    });
  }

  /**
   * Passes beside the round; each order's actions go to the side window as soon as its pass ends. A
   * block's orders hold the window open so that they go out together.
   */
  private async passBeside(
    asks: readonly OrderAsk[],
    stream: Stream,
    tips: ReadonlyMap<string, RoundTip>,
  ): Promise<void> {
    const { side } = this.dispatcher;
    const release = stream === "block" ? side.hold() : () => undefined;
    try {
      announceReads(
        this.options.chains,
        asks.flatMap(({ orderId }) => this.watched.sidesOf(orderId) ?? []),
      );
      const failures = await this.inbox.ask(asks, stream, freshestTip(tips, this.watch), (c) => side.add(c));
      const what =
        stream === "block" ? "could not act on a chain's new block" : "could not act on newly listed orders";
      for (const { orderId, error } of failures) this.logger.error({ err: error, orderId }, what);
    } finally {
      release();
    }
  }

  /** Work beside the loops, awaited at stop; a failure is logged, never left unhandled. */
  private alongside(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.logger.error({ err: error }, "work beside the round failed");
    });
    this.beside.add(tracked);
    void tracked.finally(() => this.beside.delete(tracked));
  }
}
