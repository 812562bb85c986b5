import PQueue from "p-queue";
import type { Logger } from "pino";
import { batchLimit, type ActionKind, type HtlcParams } from "../chains/chain.js";
import type { SafetyConfig } from "../config/types.js";
import type { ActionRow, ActionStatus, Journal, OrderRow, OrderTerms } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { Order, OrderStatus } from "../orderbook/types.js";
import type { CapacityLedger } from "../pricing/capacity-ledger.js";
import { indexAssets, type AssetIndex } from "../pricing/assets.js";
import type { OrderAmounts } from "../pricing/order-check.js";
import type { PriceSource } from "../pricing/price-source.js";
import { batchActions, executeClaimed, type ExecutionContext } from "./action-executor.js";
import { urgentRedeemAllowance } from "./fee-allowance.js";
import { GatheringSender } from "./gathering-sender.js";
import { LaneQueues } from "./lane-queues.js";
import { PhaseTimer } from "../util/phase-timer.js";
import { followAttempts } from "./attempt-follower.js";
import { ChainWatch } from "./chain-watch.js";
import { chainOf, readTip, sideFacts, UnsupportedChainError, type RoundTip } from "./facts.js";
import {
  claimCommitting,
  FillGate,
  refreshInput,
  reusable,
  sourceBacking,
  type ActionCandidate,
  type ClaimedAction,
} from "./fill-gate.js";
import type { RunnerObserver } from "./observer.js";
import { silentObserver } from "./observer.js";
import { OrderShapeError } from "./order-sides.js";
import { changedTerms, fillAmounts, statedTerms } from "./order-terms.js";
import type { Decision, PlanInput, QuoteCheck } from "./plan-types.js";
import { fillSafetyVerdict, plan } from "./planner.js";
import { OrdersInHand } from "./orders-in-hand.js";
import type { ChainRegistry } from "./solver-chain.js";
import { sourceWaitOf, WatchedOrders } from "./watched-orders.js";
import { Repeat } from "../util/repeat.js";

/** An order to process, and whether the service just said it (else: the journal's last copy). */
interface DiscoveredOrder {
  order: Order;
  fresh: boolean;
}

/** Statuses the service never leaves (an expired order may still be refunded or redeemed). */
const SETTLED_AT_SERVICE: ReadonlySet<string> = new Set<OrderStatus>(["Redeemed", "Refunded"]);

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

/** Statuses in which an order may still need the solver; terminal ones are followed only through the journal. */
const OPEN_STATUSES: OrderStatus[] = [
  "Created",
  "InitiateDetected",
  "Initiated",
  "AwaitingRedeem",
  "RedeemDetected",
];

/**
 * Actions of orders already processed are sent this long after the first of them is ready, together
 * with whatever else is ready by then, instead of after the round's slowest chain read.
 */
const SEND_GATHER_MS = 250;

/**
 * The passes beside the round gather their actions for a shorter time: they act on one block's news, and
 * a fill sent later than the next block is late. Long enough to take in the orders let go one by one
 * after another pass (in the load benchmark, 38 fills went out in 14 transactions per chain when each
 * pass sent its own).
 */
const SIDE_GATHER_MS = 100;

/**
 * A new block's pass keeps the side window open while its orders are still being processed, up to this
 * long after the window's first action. In the load benchmark, 21 of a block's 188 orders finished just
 * after a 100 ms window closed, waited for its gate pass and sends, and were filled a block late.
 */
const SIDE_GATHER_MAX_MS = 200;

/**
 * Statuses of orders still waiting for a fill. They are listed on their own at every poll, beside the
 * round: at a thousand open orders a round takes seconds, and an order first seen at its end would be
 * filled that late. Seen early, its HTLCs are known to the chain watch before the user locks the source.
 */
const AWAITING_FILL: OrderStatus[] = ["Created", "InitiateDetected", "Initiated"];
const SCOUT_PAGE_SIZE = 100;
/** A service that keeps listing unseen orders is left to the round after this many pages. */
const SCOUT_MAX_PAGES = 20;

/** A chain's tip as the runner knows it best at this moment; undefined when it must be read. */
type TipOf = (chain: string) => RoundTip | undefined;

/** A round longer than this is logged with the time each phase took. */
const SLOW_ROUND_MS = 5_000;

export interface RunnerOptions {
  journal: Journal;
  orderbook: Pick<OrderbookClient, "listAllOrders" | "listOrders" | "getOrder" | "instantRefund">;
  chains: ChainRegistry;
  /** The solver's prices of now: an urgent token redeem's fee allowance is converted to the fee coin at them. */
  prices: PriceSource;
  /**
   * Pricing's verdict on a fill of these amounts now (price, limits, inventory): the terms the fill
   * carries, frozen once the solver committed, never the service's present word.
   */
  checkQuote: (amounts: OrderAmounts) => Promise<QuoteCheck>;
  /** Fresh capacity for the destination assets of fills about to be claimed. */
  openLedger: (assetIds: readonly string[]) => Promise<CapacityLedger>;
  safety: SafetyConfig;
  pollIntervalMs: number;
  logger: Logger;
  observer?: RunnerObserver;
  /** Journals a settled order's profit and loss (src/pnl/recorder.ts); never throws. */
  settlement?: { recordSettlement(orderId: string): Promise<void> };
  /** Orders processed at once. */
  concurrency?: number;
  /**
   * How often each chain's tip is read while a block is due; with it, an order whose HTLC changes in a
   * new block is processed at once rather than at the next round (src/solver/chain-watch.ts).
   */
  watchIntervalMs?: number;
  now?: () => number;
}

/** The solver's main loop: discover orders, decide with the planner, act through the executors. */
export class Runner {
  private readonly observer: RunnerObserver;
  private readonly queue: PQueue;
  private readonly sendQueue: PQueue;
  /** Orders woken by a chain's new block: their own queues, never behind a long round's orders. */
  private readonly wakeQueue: LaneQueues;
  /**
   * New orders the scout found: apart from the new blocks' orders, which would otherwise wait behind a
   * burst of new orders' first plans (in the load benchmark, fills of orders known before their lock were
   * claimed 3.6 s after it while the scout processed the burst).
   */
  private readonly scoutQueue: LaneQueues;
  private readonly now: () => number;
  private readonly gate: FillGate;
  private readonly watched = new WatchedOrders();
  private readonly inHand = new OrdersInHand();
  private readonly watch: ChainWatch | null;
  private readonly rounds: Repeat;
  private readonly scouting: Repeat;
  /** Work beside the loops (orders processed again once let go, new orders the scout found); stop awaits it. */
  private readonly sideWork = new Set<Promise<void>>();
  /** One sender for every pass beside the round, so actions due together share a transaction. */
  private readonly sideSender: GatheringSender;
  /** New orders the scout handed over and whose first processing has not ended. */
  private readonly beingScouted = new Set<string>();
  private stopping = false;
  /** Every configured asset, by id. */
  private readonly assets: AssetIndex;
  /** Nonce gaps are looked for on every chain once, at the first round after start. */
  private gapsChecked = false;
  lastTickMs = 0;
  lastTickError: string | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.observer = options.observer ?? silentObserver;
    this.queue = new PQueue({ concurrency: options.concurrency ?? 8 });
    this.sendQueue = new PQueue({ concurrency: options.concurrency ?? 8 });
    this.wakeQueue = new LaneQueues(options.concurrency ?? 8);
    this.scoutQueue = new LaneQueues(options.concurrency ?? 8);
    this.now = options.now ?? Date.now;
    this.assets = indexAssets([...options.chains.values()].map((chain) => chain.config));
    this.rounds = new Repeat(() => this.tick(), options.pollIntervalMs);
    this.scouting = new Repeat(() => this.scout(), options.pollIntervalMs);
    this.sideSender = new GatheringSender((candidates) => this.sendBeside(candidates), {
      gatherMs: SIDE_GATHER_MS,
      maxGatherMs: SIDE_GATHER_MAX_MS,
      overlap: true,
    });
    this.gate = new FillGate({ journal: options.journal, openLedger: options.openLedger, now: this.now });
    this.watch =
      options.watchIntervalMs === undefined
        ? null
        : new ChainWatch({
            chains: options.chains,
            intervalMs: options.watchIntervalMs,
            ordersAt: (chain, swapIds) => this.watched.ordersAt(chain, swapIds),
            follows: (chain) => this.watched.follows(chain),
            waitingOn: (chain, only) => this.watched.waitingOn(chain, only),
            wake: (orderIds, tips) => this.alongside(this.wake(orderIds, tips)),
            logger: options.logger.child({ component: "chain-watch" }),
            now: this.now,
          });
  }

  /** Re-broadcasts what the journal holds, then polls until stopped. */
  start(): void {
    this.stopping = false;
    this.watch?.start();
    this.rounds.start();
    // The scout only serves the watch: without it, new orders wait for the round.
    if (this.watch !== null) this.scouting.start(this.options.pollIntervalMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([this.rounds.stop(), this.scouting.stop(), this.watch?.stop()]);
    await Promise.all([...this.sideWork]);
    await this.queue.onIdle();
    await this.wakeQueue.onIdle();
    await this.scoutQueue.onIdle();
    await this.sideSender.finish();
    await this.sendQueue.onIdle();
  }

  /** One round. Errors are logged and counted, never allowed to end the loop. */
  async tick(): Promise<void> {
    const { logger, chains } = this.options;
    const timer = new PhaseTimer();
    const timed = <T>(phase: string, work: () => Promise<T>): Promise<T> => timer.time(phase, work);
    let orderCount = 0;
    try {
      const gapCheck = this.gapsChecked ? "ended" : "all";
      await timed("attempts", () => followAttempts(chains, this.context(), this.now(), gapCheck));
      this.gapsChecked = true;
      const orders = await timed("discover", () => this.discover());
      orderCount = orders.length;
      this.announceReads(orders);
      const tips = await timed("tips", () => this.readTips());
      const sending = new GatheringSender((candidates) => this.execute(candidates), {
        gatherMs: SEND_GATHER_MS,
        overlap: false,
      });
      const tipOf = this.freshestTip(tips);
      await timed("orders", () =>
        Promise.all(
          orders.map((order) =>
            this.queue.add(async () => sending.add(await this.processHeld(order, tipOf))),
          ),
        ),
      );
      await timed("execute", () => sending.finish());
      this.lastTickError = null;
    } catch (error) {
      this.lastTickError = error instanceof Error ? error.message : String(error);
      logger.error({ err: error }, "solver round failed");
    }
    const tookMs = timer.elapsedMs();
    // A round that takes many blocks delays every fill and redeem behind it: say where the time went.
    if (tookMs > SLOW_ROUND_MS)
      logger.warn({ tookMs, orders: orderCount, phasesMs: timer.phasesMs }, "slow round");
    this.lastTickMs = this.now();
    this.observer.polled(this.lastTickMs);
  }

  private context(): ExecutionContext {
    const { journal, orderbook, logger, safety, chains } = this.options;
    return {
      journal,
      orderbook,
      observer: this.observer,
      logger,
      urgencyMarginMs: safety.redeemDeadlineMarginMs,
      recheckFill: (fill) => this.recheckFill(fill),
      feeAllowance: (actions) =>
        urgentRedeemAllowance(actions, {
          nowMs: this.now(),
          urgencyMarginMs: safety.redeemDeadlineMarginMs,
          urgentRedeemFeeBps: safety.urgentRedeemFeeBps,
          assets: this.assets,
          feeAssetOf: (chain) => chains.get(chain)?.executor.feeAsset ?? null,
          prices: this.options.prices,
          logger,
        }),
    };
  }

  /**
   * A signed fill's safety rules with the chains' facts of now, under the terms it was claimed with;
   * the price is not asked again (the fill is already committed to it).
   */
  private async recheckFill(fill: ActionRow): Promise<Decision | null> {
    const { journal, logger } = this.options;
    const order = journal.orderSnapshot(fill.orderId);
    const terms = journal.orderTerms(fill.orderId);
    if (order === null || terms === null) {
      return {
        outcome: "wait",
        reason: "order_unknown",
        detail: `the journal holds no order or terms for ${fill.orderId}`,
      };
    }
    const input = await this.planInput(order, terms, logger.child({ orderId: fill.orderId }));
    return fillSafetyVerdict(refreshInput(journal, input, this.now()));
  }

  /**
   * Carries out one round's actions: fills through the gate (rules again, capacity against every fill
   * before them, the journal's claim), the rest claimed directly, then batched per chain and kind where
   * the chain allows it.
   */
  private async execute(candidates: ActionCandidate[]): Promise<void> {
    try {
      await this.executeHeld(candidates);
    } finally {
      this.letGo(candidates.map((c) => c.request.orderId));
    }
  }

  /** Releases held orders, and processes again those a new block concerned while they were held. */
  private letGo(orderIds: readonly string[]): void {
    const again = this.inHand.release(orderIds);
    if (again.length === 0 || this.stopping) return;
    this.alongside(this.wake(again, new Map()));
  }

  /** Work beside the loops, awaited at stop; a failure (a journal read) is logged, never left unhandled. */
  private alongside(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.options.logger.error({ err: error }, "work beside the round failed");
    });
    this.sideWork.add(tracked);
    void tracked.finally(() => this.sideWork.delete(tracked));
  }

  private async executeHeld(candidates: ActionCandidate[]): Promise<void> {
    const { chains, logger } = this.options;
    const fills = candidates.filter((c) => c.request.kind === "fill");
    const gated = await this.gate.admit(fills);
    for (const { orderId, decision } of gated.refused) {
      this.recordDecision(
        orderId,
        decision.outcome,
        decision.reason,
        decision.detail,
        logger.child({ orderId }),
      );
    }
    const claimed: ClaimedAction[] = [...gated.admitted];
    for (const candidate of candidates) {
      if (candidate.request.kind === "fill") continue;
      const action = this.claim(candidate);
      if (action !== null) claimed.push({ request: candidate.request, action });
    }
    const batches = batchActions(claimed, (chain, kind) => batchLimit(chains.get(chain)?.executor, kind));
    // Its own queue: sends must not wait behind the round's remaining chain reads.
    await Promise.all(
      batches.map((batch) => {
        const chain = chains.get(batch[0]?.request.params.chain ?? "");
        return chain ? this.sendQueue.add(() => executeClaimed(batch, chain, this.context())) : undefined;
      }),
    );
  }

  /** Claims a redeem, refund or instant refund; null when it is under way, done, or refused by the journal. */
  private claim({ request, input }: ActionCandidate): ClaimedAction["action"] | null {
    const { journal, logger } = this.options;
    if (request.kind === "instant_refund") {
      const claimed = claimCommitting(journal, request, input, this.now());
      if ("decision" in claimed) {
        const log = logger.child({ orderId: request.orderId });
        log.warn(
          { reason: claimed.decision.reason, detail: claimed.decision.detail },
          "instant refund refused by the journal",
        );
        return null;
      }
      return claimed.action;
    }
    const claim = journal.claimAction(request, this.now());
    return claim.ok ? reusable(journal, claim.action, request) : null;
  }

  /** New orders naming our addresses, plus every order the journal still follows, read fresh by id. */
  private async discover(): Promise<DiscoveredOrder[]> {
    const { orderbook, journal, logger, chains } = this.options;
    const parties = new Set([...chains.values()].map((c) => c.party));
    const byId = new Map<string, DiscoveredOrder>();
    const listedFromMs = this.now();
    let listed = 0;
    for (const address of parties) {
      try {
        const { orders, malformed } = await orderbook.listAllOrders({
          address,
          status: OPEN_STATUSES.join(","),
        });
        listed += 1;
        for (const problem of malformed)
          logger.error({ err: problem }, "service sent a malformed order; skipped");
        for (const order of orders) {
          // Settled here already; the service may still list it until it sees the last redeem.
          if (journal.isOrderDone(order.order_id)) continue;
          byId.set(order.order_id, { order, fresh: true });
        }
      } catch (error) {
        logger.warn({ err: error, address }, "could not list orders; following the journal's orders");
      }
    }
    // The service's silence never ends the solver's interest: an order it follows is read from the
    // service when it answers, else taken as the journal last saw it; redeems and refunds come from the
    // chains and the journal.
    const serviceAnswers = listed > 0;
    const unlisted = journal.activeOrderIds().filter((orderId) => !byId.has(orderId));
    const rows = new Map(unlisted.map((orderId) => [orderId, journal.orderRow(orderId)]));
    // Read side by side: one at a time, a few hundred orders past the listing cost a round many seconds.
    const refreshed = await Promise.all(
      unlisted.map((orderId) =>
        this.queue.add(async (): Promise<Order | null> => {
          if (!serviceAnswers || copyServes(rows.get(orderId), listedFromMs)) return null;
          try {
            return await orderbook.getOrder(orderId);
          } catch (error) {
            logger.warn(
              { err: error, orderId },
              "could not refresh a journaled order; using the journal's copy",
            );
            return null;
          }
        }),
      ),
    );
    unlisted.forEach((orderId, i) => {
      const order = refreshed[i];
      if (order) return byId.set(orderId, { order, fresh: true });
      const copy = rows.get(orderId)?.snapshot;
      if (copy) byId.set(orderId, { order: copy, fresh: false });
    });
    return [...byId.values()];
  }

  /** Tells each chain which HTLCs the round will read, before any is read (ChainReader.expectReads). */
  private announceReads(orders: readonly DiscoveredOrder[]): void {
    const { chains, journal } = this.options;
    const byChain = new Map<string, HtlcParams[]>();
    for (const { order } of orders) {
      let terms;
      try {
        terms = journal.orderTerms(order.order_id) ?? statedTerms(order, chains);
      } catch {
        continue; // An order the solver cannot read is refused when processed.
      }
      for (const params of [terms.source, terms.destination]) {
        const list = byChain.get(params.chain) ?? [];
        list.push(params);
        byChain.set(params.chain, list);
      }
    }
    for (const [name, params] of byChain) chains.get(name)?.reader.expectReads?.(params);
  }

  /**
   * Orders a chain's new block concerns, processed and acted on now, beside the round: a source just
   * locked or confirmed is filled, a secret just revealed is used. Every rule is the round's own.
   */
  private async wake(orderIds: readonly string[], tips: ReadonlyMap<string, RoundTip>): Promise<void> {
    const { journal } = this.options;
    const orders: DiscoveredOrder[] = [];
    for (const orderId of orderIds) {
      const order = journal.isOrderDone(orderId) ? null : journal.orderSnapshot(orderId);
      if (order === null) this.watched.forget(orderId);
      else orders.push({ order, fresh: false });
    }
    await this.processNow(orders, tips, "could not act on a chain's new block", true);
  }

  /**
   * Orders still waiting for a fill that the journal has never seen, processed as soon as listed. The
   * service lists newest first, so pages are read only while they hold unseen orders: one page when
   * nothing is new, however many orders are open.
   */
  private async scout(): Promise<void> {
    const { orderbook, journal, chains, logger } = this.options;
    const parties = new Set([...chains.values()].map((c) => c.party));
    const unseen: DiscoveredOrder[] = [];
    for (const address of parties) {
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
          const fresh = listed.page.data.filter(
            (order) => !journal.isKnownOrder(order.order_id) && !this.beingScouted.has(order.order_id),
          );
          for (const order of fresh) {
            this.beingScouted.add(order.order_id);
            unseen.push({ order, fresh: true });
          }
          if (fresh.length === 0 || page >= listed.page.total_pages) break;
        }
      } catch (error) {
        logger.warn({ err: error, address }, "could not list the orders awaiting a fill");
      }
    }
    // Processed beside the next listings: a burst of new orders' first plans (a Bitcoin side's reads take
    // seconds under load) held up the next look for new orders, and orders were first seen 7 s after
    // they were listed in the load benchmark.
    if (unseen.length === 0 || this.stopping) return;
    this.alongside(
      this.processNow(unseen, new Map(), "could not act on newly listed orders", false).finally(() => {
        for (const { order } of unseen) this.beingScouted.delete(order.order_id);
      }),
    );
  }

  /**
   * Processes these orders beside the round; each order's actions go to the side sender as soon as it is
   * processed, not after the slowest of them. Never throws.
   */
  private async processNow(
    orders: readonly DiscoveredOrder[],
    tips: ReadonlyMap<string, RoundTip>,
    failure: string,
    byNewBlock: boolean,
  ): Promise<void> {
    if (orders.length === 0) return;
    const { logger } = this.options;
    // A block's orders go out together; new orders the scout found are not held for each other.
    const release = byNewBlock ? this.sideSender.hold() : () => undefined;
    try {
      this.announceReads(orders);
      const tipOf = this.freshestTip(tips);
      const queue = byNewBlock ? this.wakeQueue : this.scoutQueue;
      // Settled one by one: an order whose processing failed must not keep the others' actions (and
      // their hold on their orders) from being sent.
      await Promise.all(
        orders.map(async (discovered) => {
          try {
            const { order } = discovered;
            const lane = `${order.source_swap.chain}>${order.destination_swap.chain}`;
            this.sideSender.add(await queue.add(lane, () => this.processHeld(discovered, tipOf, byNewBlock)));
          } catch (error) {
            logger.error({ err: error, orderId: discovered.order.order_id }, failure);
          }
        }),
      );
    } catch (error) {
      logger.error({ err: error, orders: orders.length }, failure);
    } finally {
      release();
    }
  }

  /** Sends the side passes' gathered actions; a failure is logged, the orders are let go either way. */
  private async sendBeside(candidates: ActionCandidate[]): Promise<void> {
    try {
      await this.execute(candidates);
    } catch (error) {
      this.options.logger.error(
        { err: error, orders: new Set(candidates.map((c) => c.request.orderId)).size },
        "could not send the actions of orders processed beside the round",
      );
    }
  }

  /** Each chain's tip: whichever of these and the chain watch's latest was read last. */
  private freshestTip(tips: ReadonlyMap<string, RoundTip>): TipOf {
    return (chain) => {
      const given = tips.get(chain);
      const watched = this.watch?.tip(chain);
      if (given === undefined) return watched;
      return watched !== undefined && watched.readAtMs > given.readAtMs ? watched : given;
    };
  }

  /**
   * Processes an order unless another pass holds it; an order with actions stays held until they are
   * claimed and sent (`execute`), one without is released at once.
   */
  private async processHeld(
    discovered: DiscoveredOrder,
    tipOf: TipOf,
    byNewBlock = false,
  ): Promise<ActionCandidate[]> {
    const orderId = discovered.order.order_id;
    if (!this.inHand.take(orderId, byNewBlock)) return [];
    // Another pass may have settled it since this one listed it.
    if (this.options.journal.isOrderDone(orderId)) {
      this.letGo([orderId]);
      return [];
    }
    let candidates: ActionCandidate[] = [];
    try {
      candidates = await this.processOrder(discovered, tipOf);
    } finally {
      if (candidates.length === 0) this.letGo([orderId]);
    }
    return candidates;
  }

  /** Each chain's tip, read once for the round; a chain that does not answer is read per order instead. */
  private async readTips(): Promise<ReadonlyMap<string, RoundTip>> {
    const { chains, logger } = this.options;
    const tips = new Map<string, RoundTip>();
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        try {
          tips.set(chain.config.name, await readTip(chain, this.now));
        } catch (error) {
          logger.warn({ err: error, chain: chain.config.name }, "could not read the chain's tip this round");
        }
      }),
    );
    return tips;
  }

  /** Reads both chains under the order's terms, asks the planner, and returns what to do now. */
  private async processOrder({ order, fresh }: DiscoveredOrder, tipOf: TipOf): Promise<ActionCandidate[]> {
    const { journal, logger, chains } = this.options;
    const log = logger.child({ orderId: order.order_id });
    if (!journal.isKnownOrder(order.order_id)) this.observer.orderSeen(order.order_id);
    if (fresh) journal.upsertOrder(order, this.now());
    try {
      const stated = statedTerms(order, chains);
      const frozen = journal.orderTerms(order.order_id);
      const terms = frozen ?? stated;
      if (frozen !== null) {
        const changed = changedTerms(frozen, stated);
        if (changed.length > 0)
          log.warn(
            { changed },
            "the service changed an order the solver acted on; keeping the terms it acted on",
          );
      }
      // A new order's HTLCs are watched from its first plan on, not after it: its lock may land while
      // the plan reads the chain, and the watch would not know what the lock's event concerns.
      if (!this.watched.has(order.order_id)) this.watched.note(order.order_id, terms, "lock");
      const base = await this.planInput(order, terms, log, tipOf);
      const fillIdle =
        base.actions.fill === undefined || base.actions.fill === "planned" || base.actions.fill === "failed";
      const input: PlanInput = {
        ...base,
        quoteCheck:
          fillIdle && base.destination.state !== null
            ? await this.options.checkQuote(fillAmounts(terms))
            : null,
      };
      const result = plan(input);
      const decision = result.decision;
      this.watched.note(
        order.order_id,
        terms,
        decision !== null && decision.outcome === "wait" ? sourceWaitOf(decision.reason) : null,
      );
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
        this.watched.forget(order.order_id);
        await this.options.settlement?.recordSettlement(order.order_id);
        log.info("order settled; no longer followed");
      }
      return result.actions.map((request) => ({ request, input }));
    } catch (error) {
      if (error instanceof UnsupportedChainError) {
        this.recordDecision(order.order_id, "refuse", "unsupported_asset", error.message, log);
        return [];
      }
      if (error instanceof OrderShapeError) {
        this.recordDecision(order.order_id, "refuse", "order_unusable", error.message, log);
        return [];
      }
      // Not a verdict on the order: an unexpected fault this round. Nothing is sent; the next round tries again.
      log.error({ err: error }, "could not process order this round");
      this.recordDecision(
        order.order_id,
        "wait",
        "processing_error",
        error instanceof Error ? error.message : String(error),
        log,
      );
      return [];
    }
  }

  /** Both sides read from their chains under these terms, with what the journal holds for the order. */
  private async planInput(
    order: Order,
    terms: OrderTerms,
    log: Logger,
    tipOf: TipOf = () => undefined,
  ): Promise<PlanInput> {
    const { journal, chains } = this.options;
    const context = { orderId: order.order_id, logger: log, now: this.now };
    const sourceChain = chainOf(chains, order, "source");
    const destinationChain = chainOf(chains, order, "destination");
    const fillTxids = journal.actionTxids(order.order_id, "fill");
    const [source, destination] = await Promise.all([
      sideFacts(sourceChain, terms.source, {
        ...context,
        side: "source",
        tip: tipOf(sourceChain.config.name),
        // The deposits a fill was judged on stay readable however the address is flooded after it.
        lockIds: journal.sourceLockIds(order.order_id),
      }),
      sideFacts(destinationChain, terms.destination, {
        ...context,
        side: "destination",
        tip: tipOf(destinationChain.config.name),
        // Nothing was ever signed there: no answer can show a fill of ours (HtlcReadOptions). An index's
        // last sync will do; a fresh one took 1-3 s under load.
        latestView: fillTxids.length === 0,
        // The fill is the transaction the solver journaled, not whatever lives at the address.
        ownTxids: fillTxids,
      }),
    ]);
    const base: PlanInput = {
      order,
      nowMs: this.now(),
      source,
      destination,
      actions: this.actionStatuses(order.order_id),
      fillTxids,
      sourceBacksOrder: null,
      refundAddress: terms.refundAddress,
      quoteCheck: null,
      safety: this.options.safety,
      maxDestinationTimelock: BigInt(destinationChain.config.fillTimelockBlocks),
    };
    const holder = journal.sourceBackedBy(sourceBacking(base));
    return { ...base, sourceBacksOrder: holder !== null && holder !== order.order_id ? holder : null };
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
