/**
 * Passes beside the round: a chain's new block, orders the scout just found, and orders a block
 * concerned while they were in hand. Each order's actions go to the dispatcher's side window as soon as
 * its pass ends; a block's orders hold the window open so that they go out together. None of this work
 * is awaited by the loop that starts it; `settle` awaits all of it.
 */
import type { Logger } from "pino";
import type { Journal } from "../journal/journal.js";
import type { Dispatcher } from "./dispatcher.js";
import type { RoundTip } from "./facts.js";
import type { OrderDiscovery } from "./order-discovery.js";
import { laneOf, type OrderAsk, type OrderInbox, type Stream } from "./order-inbox.js";
import { announceReads, freshestTip, termsOf } from "./round-tips.js";
import type { ChainRegistry } from "./solver-chain.js";
import type { WatchedOrders } from "./watched-orders.js";

export interface PassesBesideOptions {
  journal: Journal;
  chains: ChainRegistry;
  inbox: () => OrderInbox;
  dispatcher: () => Dispatcher;
  discovery: OrderDiscovery;
  watched: WatchedOrders;
  /** The chain watch's latest tips; null without a watch. */
  watch: () => { tip(chain: string): RoundTip | undefined } | null;
  logger: Logger;
}

const FAILURES: Record<Exclude<Stream, "round">, string> = {
  block: "could not act on a chain's new block",
  scout: "could not act on newly listed orders",
};

export class PassesBeside {
  private readonly underWay = new Set<Promise<void>>();

  constructor(private readonly options: PassesBesideOptions) {}

  /** Orders a chain's new block concerns, with the tips the watch read. */
  onBlock(orderIds: readonly string[], tips: ReadonlyMap<string, RoundTip>): void {
    // One the watch names but forgot since (settled) is left out.
    const asks = orderIds.flatMap((orderId) => {
      const sides = this.options.watched.sidesOf(orderId);
      return sides === undefined
        ? []
        : [{ orderId, lane: laneOf(sides.source.chain, sides.destination.chain) }];
    });
    this.track(this.pass(this.announced(asks), "block", tips));
  }

  /** Orders a block concerned while they were in hand, let go now. */
  again(asks: readonly OrderAsk[]): void {
    this.track(this.pass(this.announced(asks), "block", new Map()));
  }

  /**
   * New orders awaiting a fill, passed over as soon as listed. Not awaited: a burst of new orders' first
   * passes (a Bitcoin side's reads take seconds under load) held up the next look for new orders, and
   * orders were first seen 7 s after they were listed.
   */
  async scout(): Promise<void> {
    const orders = await this.options.discovery.scout();
    if (orders.length === 0) return;
    const { journal, chains } = this.options;
    announceReads(chains, termsOf(orders, journal, chains));
    const asks = orders.map((o) => ({
      orderId: o.order_id,
      lane: laneOf(o.source_swap.chain, o.destination_swap.chain),
    }));
    this.track(this.pass(asks, "scout", new Map()));
  }

  async settle(): Promise<void> {
    while (this.underWay.size > 0) await Promise.all([...this.underWay]);
  }

  private async pass(
    asks: readonly OrderAsk[],
    stream: "block" | "scout",
    tips: ReadonlyMap<string, RoundTip>,
  ): Promise<void> {
    const { logger } = this.options;
    const { side } = this.options.dispatcher();
    const release = stream === "block" ? side.hold() : () => undefined;
    try {
      const tipOf = freshestTip(tips, this.options.watch());
      const failures = await this.options.inbox().ask(asks, stream, tipOf, (c) => side.add(c));
      for (const { orderId, error } of failures) logger.error({ err: error, orderId }, FAILURES[stream]);
    } finally {
      release();
    }
  }

  /** Tells the chains which HTLCs of these followed orders are about to be read. */
  private announced(asks: readonly OrderAsk[]): readonly OrderAsk[] {
    const { chains, watched } = this.options;
    announceReads(
      chains,
      asks.flatMap(({ orderId }) => watched.sidesOf(orderId) ?? []),
    );
    return asks;
  }

  /** A failure is logged, never left unhandled. */
  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.options.logger.error({ err: error }, "work beside the round failed");
    });
    this.underWay.add(tracked);
    void tracked.finally(() => this.underWay.delete(tracked));
  }
}
