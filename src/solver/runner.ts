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
import { FillGate } from "./fill-gate.js";
import { FillSafety } from "./fill-safety.js";
import { ListingRound } from "./listing-round.js";
import { silentObserver, type RunnerObserver } from "./observer.js";
import { OrderDiscovery } from "./order-discovery.js";
import { OrderFacts } from "./order-facts.js";
import { OrderInbox } from "./order-inbox.js";
import { OrderPass } from "./order-pass.js";
import { PassesBeside } from "./passes-beside.js";
import type { RunnerOptions } from "./runner-options.js";
import { WatchedOrders } from "./watched-orders.js";

export type { RunnerOptions } from "./runner-options.js";

export class Runner {
  private readonly observer: RunnerObserver;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly inbox: OrderInbox;
  private readonly dispatcher: Dispatcher;
  private readonly beside: PassesBeside;
  private readonly round: ListingRound;
  private readonly watch: ChainWatch | null;
  private readonly rounds: Repeat;
  private readonly scouting: Repeat;
  lastTickMs = 0;
  lastTickError: string | null = null;

  constructor(private readonly options: RunnerOptions) {
    const { journal, chains, safety, logger } = options;
    const now = (this.now = options.now ?? Date.now);
    const concurrency = options.concurrency ?? 8;
    const observer = (this.observer = options.observer ?? silentObserver);
    this.logger = logger;
    const watched = new WatchedOrders();
    const decisions = new DecisionLog(journal, observer, logger, now);
    const facts = new OrderFacts(chains, safety, now);
    const fillSafety = new FillSafety(journal, facts, logger, now);
    const context = executionContext({ ...options, observer, fillSafety, now });
    const discovery = new OrderDiscovery({ ...options, observer, now, concurrency });
    this.beside = new PassesBeside({
      journal,
      chains,
      inbox: () => this.inbox,
      dispatcher: () => this.dispatcher,
      discovery,
      watched,
      watch: () => this.watch,
      logger,
    });
    this.inbox = new OrderInbox({
      concurrency,
      pass: new OrderPass({ ...options, facts, decisions, watched }),
      askAgain: (asks) => this.beside.again(asks),
    });
    this.dispatcher = new Dispatcher({
      ...options,
      gate: new FillGate({ journal, openLedger: options.openLedger, now }),
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
            ordersAt: (chain, swapIds) => watched.ordersAt(chain, swapIds),
            follows: (chain) => watched.follows(chain),
            waitingOn: (chain, only) => watched.waitingOn(chain, only),
            wake: (orderIds, tips) => this.beside.onBlock(orderIds, tips),
            logger: logger.child({ component: "chain-watch" }),
            now,
          });
    const { inbox, dispatcher, watch } = this;
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
    this.scouting = new Repeat(() => this.beside.scout(), options.pollIntervalMs);
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
    await this.beside.settle();
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
    this.lastTickMs = this.now();
    this.observer.polled(this.lastTickMs);
  }
}
