/**
 * Where the solver learns of orders: the round's full listing (every open order naming its addresses,
 * and every order the journal still follows, read again by id when due) and the scout (orders awaiting a
 * fill that the journal has never seen). What they find is stored in the journal, the service's copy
 * as it came; the passes read it from there.
 */
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { Journal, OrderRow } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { Order, OrderStatus } from "../orderbook/types.js";
import type { RunnerObserver } from "./observer.js";
import type { ChainRegistry } from "./solver-chain.js";

/** Statuses in which an order may still need the solver; terminal ones are followed only through the journal. */
const OPEN_STATUSES: OrderStatus[] = [
  "Created",
  "InitiateDetected",
  "Initiated",
  "AwaitingRedeem",
  "RedeemDetected",
];

/** Statuses the service never leaves (an expired order may still be refunded or redeemed). */
const SETTLED_AT_SERVICE: ReadonlySet<string> = new Set<OrderStatus>(["Redeemed", "Refunded"]);

/**
 * Statuses of orders still waiting for a fill. They are listed on their own at every poll, beside the
 * round: at a thousand open orders a round takes seconds, and an order first seen at its end would be
 * filled that late. Seen early, its HTLCs are known to the chain watch before the user locks the source.
 */
const AWAITING_FILL: OrderStatus[] = ["Created", "InitiateDetected", "Initiated"];
const SCOUT_PAGE_SIZE = 100;
/** A service that keeps listing unseen orders is left to the round after this many pages. */
const SCOUT_MAX_PAGES = 20;

/**
 * The journal's copy of an order left out of the listing is as good as the service's, so it is not read
 * again one by one: the scout listed it after the listing began (in a burst of new orders, hundreds), or
 * the service last said it is redeemed or refunded, which never changes there again while the solver
 * finishes its side from the chains.
 */
function copyServes(row: OrderRow | null | undefined, listedFromMs: number): boolean {
  if (!row) return false;
  return row.firstSeenMs > listedFromMs || SETTLED_AT_SERVICE.has(row.snapshot.status);
}

export interface OrderDiscoveryOptions {
  journal: Journal;
  orderbook: Pick<OrderbookClient, "listAllOrders" | "listOrders" | "getOrder">;
  chains: ChainRegistry;
  observer: RunnerObserver;
  logger: Logger;
  now: () => number;
  /** Orders read by id at once. */
  concurrency: number;
}

export class OrderDiscovery {
  private readonly reads: PQueue;

  constructor(private readonly options: OrderDiscoveryOptions) {
    this.reads = new PQueue({ concurrency: options.concurrency });
  }

  /** Every order the round passes over: listed, plus every order the journal still follows. */
  async listing(): Promise<Order[]> {
    const { orderbook, journal, logger } = this.options;
    const byId = new Map<string, Order>();
    const listedFromMs = this.options.now();
    let listed = 0;
    for (const address of this.parties()) {
      try {
        const { orders, malformed } = await orderbook.listAllOrders({
          address,
          status: OPEN_STATUSES.join(","),
        });
        listed += 1;
        for (const problem of malformed)
          logger.error({ err: problem }, "service sent a malformed order; skipped");
        // Settled here already; the service may still list it until it sees the last redeem.
        for (const order of this.storeAll(orders)) byId.set(order.order_id, order);
      } catch (error) {
        logger.warn({ err: error, address }, "could not list orders; following the journal's orders");
      }
    }
    // The service's silence never ends the solver's interest: an order it follows is read from the
    // service when it answers, else taken as the journal last saw it; redeems and refunds come from the
    // chains and the journal.
    const unlisted = journal.activeOrderIds().filter((orderId) => !byId.has(orderId));
    const rows = new Map(unlisted.map((orderId) => [orderId, journal.orderRow(orderId)]));
    // Read side by side: one at a time, a few hundred orders past the listing cost a round many seconds.
    await Promise.all(
      unlisted.map((orderId) =>
        this.reads.add(async () => {
          const row = rows.get(orderId);
          const fresh = listed > 0 && !copyServes(row, listedFromMs) ? await this.readOne(orderId) : null;
          if (fresh !== null && this.store(fresh)) byId.set(orderId, fresh);
          else if (row) byId.set(orderId, row.snapshot);
        }),
      ),
    );
    return [...byId.values()];
  }

  /**
   * Orders awaiting a fill that the journal has never seen, stored as they are found. The service lists
   * newest first, so pages are read only while they hold unseen orders: one page when nothing is new,
   * however many orders are open.
   */
  async scout(): Promise<Order[]> {
    const { orderbook, journal, logger } = this.options;
    const unseen: Order[] = [];
    for (const address of this.parties()) {
      try {
        for (let page = 1; page <= SCOUT_MAX_PAGES; page++) {
          // Malformed orders are reported by the round's own listing.
          const listed = await orderbook.listOrders({
            address,
            status: AWAITING_FILL.join(","),
            page,
            per_page: SCOUT_PAGE_SIZE,
          });
          // An order names the solver under each of its parties: it is listed once per party.
          const fresh = listed.page.data.filter((order) => !journal.isKnownOrder(order.order_id));
          unseen.push(...this.storeAll(fresh));
          if (fresh.length === 0 || page >= listed.page.total_pages) break;
        }
      } catch (error) {
        logger.warn({ err: error, address }, "could not list the orders awaiting a fill");
      }
    }
    return unseen;
  }

  /**
   * Stores these copies in one journal transaction: one disk sync for a page, where a burst of a
   * thousand new orders stored one by one held the event loop for a sync each. Returns those still
   * followed.
   */
  private storeAll(orders: readonly Order[]): Order[] {
    if (orders.length === 0) return [];
    return this.options.journal.atomically(() => orders.filter((order) => this.store(order)));
  }

  /** Stores the service's copy; false for an order the solver settled for good (nothing to pass over). */
  private store(order: Order): boolean {
    const { journal, observer } = this.options;
    const active = journal.isOrderActive(order.order_id);
    if (active === false) return false;
    if (active === null) observer.orderSeen(order.order_id);
    journal.upsertOrder(order, this.options.now());
    return true;
  }

  private async readOne(orderId: string): Promise<Order | null> {
    try {
      return await this.options.orderbook.getOrder(orderId);
    } catch (error) {
      this.options.logger.warn(
        { err: error, orderId },
        "could not refresh a journaled order; using the journal's copy",
      );
      return null;
    }
  }

  private parties(): Set<string> {
    return new Set([...this.options.chains.values()].map((c) => c.party));
  }
}
