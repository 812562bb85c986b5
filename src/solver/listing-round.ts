/**
 * One full round: the journal's transactions followed, every order the solver follows listed and passed
 * over with each chain's tip read once, and the round's actions sent. It throws when a step failed; the
 * runner keeps the error for health.
 */
import type { Logger } from "pino";
import type { Journal } from "../journal/journal.js";
import { PhaseTimer } from "../util/phase-timer.js";
import type { ExecutionContext } from "./action-executor.js";
import { followAttempts } from "./attempt-follower.js";
import type { Dispatcher } from "./dispatcher.js";
import type { OrderDiscovery } from "./order-discovery.js";
import { laneOf, type OrderInbox } from "./order-inbox.js";
import { announceReads, freshestTip, readTips, termsOf } from "./round-tips.js";
import type { RoundTip } from "./facts.js";
import type { ChainRegistry } from "./solver-chain.js";

/** A round longer than this is logged with the time each phase took. */
const SLOW_ROUND_MS = 5_000;

export interface ListingRoundOptions {
  journal: Journal;
  chains: ChainRegistry;
  discovery: OrderDiscovery;
  inbox: OrderInbox;
  dispatcher: Dispatcher;
  context: ExecutionContext;
  /** The chain watch's tips, fresher than the round's own once a block passed. */
  watch: { tip(chain: string): RoundTip | undefined } | null;
  logger: Logger;
  now: () => number;
}

export class ListingRound {
  /** Nonce gaps are looked for on every chain once, at the first round after start. */
  private gapsChecked = false;

  constructor(private readonly options: ListingRoundOptions) {}

  async run(): Promise<void> {
    const { chains, discovery, inbox, dispatcher, logger, now } = this.options;
    const timer = new PhaseTimer();
    let orderCount = 0;
    try {
      const gapCheck = this.gapsChecked ? "ended" : "all";
      await timer.time("attempts", () => followAttempts(chains, this.options.context, now(), gapCheck));
      this.gapsChecked = true;
      const orders = await timer.time("discover", () => discovery.listing());
      orderCount = orders.length;
      announceReads(chains, termsOf(orders, this.options.journal, chains));
      const tips = await timer.time("tips", () => readTips(chains, now, logger));
      const window = dispatcher.roundWindow();
      const asks = orders.map((o) => ({
        orderId: o.order_id,
        lane: laneOf(o.source_swap.chain, o.destination_swap.chain),
      }));
      const failures = await timer.time("orders", () =>
        inbox.ask(asks, "round", freshestTip(tips, this.options.watch), (c) => window.add(c)),
      );
      await timer.time("execute", () => window.finish());
      if (failures[0] !== undefined) throw failures[0].error;
    } finally {
      const tookMs = timer.elapsedMs();
      // A round that takes many blocks delays every fill and redeem behind it: say where the time went.
      if (tookMs > SLOW_ROUND_MS)
        logger.warn({ tookMs, orders: orderCount, phasesMs: timer.phasesMs }, "slow round");
    }
  }
}
