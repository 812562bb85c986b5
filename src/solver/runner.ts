import PQueue from "p-queue";
import type { Logger } from "pino";
import type { ActionKind } from "../chains/chain.js";
import type { SafetyConfig } from "../config/types.js";
import type { ActionRow, ActionStatus, Journal, OrderTerms } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { Order, OrderStatus } from "../orderbook/types.js";
import type { CapacityLedger } from "../pricing/capacity-ledger.js";
import { batchActions, executeClaimed, type ExecutionContext } from "./action-executor.js";
import { urgentRedeemAllowance } from "./fee-allowance.js";
import { followAttempts } from "./attempt-follower.js";
import { chainOf, sideFacts, UnsupportedChainError } from "./facts.js";
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
import { changedTerms, statedTerms } from "./order-terms.js";
import type { Decision, PlanInput, QuoteCheck } from "./plan-types.js";
import { fillSafetyVerdict, plan } from "./planner.js";
import type { ChainRegistry } from "./solver-chain.js";

/** An order to process, and whether the service just said it (else: the journal's last copy). */
interface DiscoveredOrder {
  order: Order;
  fresh: boolean;
}

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
  orderbook: Pick<OrderbookClient, "listAllOrders" | "getOrder" | "instantRefund">;
  chains: ChainRegistry;
  /** Pricing's verdict on filling the order now (amounts, limits, inventory). */
  checkQuote: (order: Order) => Promise<QuoteCheck>;
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
  now?: () => number;
}

/** The solver's main loop: discover orders, decide with the planner, act through the executors. */
export class Runner {
  private readonly observer: RunnerObserver;
  private readonly queue: PQueue;
  private readonly now: () => number;
  private readonly gate: FillGate;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Nonce gaps are looked for on every chain once, at the first round after start. */
  private gapsChecked = false;
  lastTickMs = 0;
  lastTickError: string | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.observer = options.observer ?? silentObserver;
    this.queue = new PQueue({ concurrency: options.concurrency ?? 8 });
    this.now = options.now ?? Date.now;
    this.gate = new FillGate({ journal: options.journal, openLedger: options.openLedger, now: this.now });
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
      await followAttempts(chains, this.context(), this.now(), this.gapsChecked ? "ended" : "all");
      this.gapsChecked = true;
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
          assets: [...chains.values()].flatMap((chain) => chain.config.assets),
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
    const batches = batchActions(claimed, (chain) => chains.get(chain)?.executor.maxBatch ?? 1);
    await Promise.all(
      batches.map((batch) => {
        const chain = chains.get(batch[0]?.request.params.chain ?? "");
        return chain ? this.queue.add(() => executeClaimed(batch, chain, this.context())) : undefined;
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
        for (const order of orders) byId.set(order.order_id, { order, fresh: true });
      } catch (error) {
        logger.warn({ err: error, address }, "could not list orders; following the journal's orders");
      }
    }
    // The service's silence never ends the solver's interest: an order it follows is read from the
    // service when it answers, else taken as the journal last saw it; redeems and refunds come from the
    // chains and the journal.
    const serviceAnswers = listed > 0;
    for (const orderId of journal.activeOrderIds()) {
      if (byId.has(orderId)) continue;
      if (serviceAnswers) {
        try {
          byId.set(orderId, { order: await orderbook.getOrder(orderId), fresh: true });
          continue;
        } catch (error) {
          logger.warn(
            { err: error, orderId },
            "could not refresh a journaled order; using the journal's copy",
          );
        }
      }
      const snapshot = journal.orderSnapshot(orderId);
      if (snapshot !== null) byId.set(orderId, { order: snapshot, fresh: false });
    }
    return [...byId.values()];
  }

  /** Reads both chains under the order's terms, asks the planner, and returns what to do now. */
  private async processOrder({ order, fresh }: DiscoveredOrder): Promise<ActionCandidate[]> {
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
      const base = await this.planInput(order, terms, log);
      const fillIdle =
        base.actions.fill === undefined || base.actions.fill === "planned" || base.actions.fill === "failed";
      const input: PlanInput = {
        ...base,
        quoteCheck: fillIdle && base.destination.state !== null ? await this.options.checkQuote(order) : null,
      };
      const result = plan(input);
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
  private async planInput(order: Order, terms: OrderTerms, log: Logger): Promise<PlanInput> {
    const { journal, chains } = this.options;
    const context = { orderId: order.order_id, logger: log, now: this.now };
    const sourceChain = chainOf(chains, order, "source");
    const destinationChain = chainOf(chains, order, "destination");
    const [source, destination] = await Promise.all([
      sideFacts(sourceChain, terms.source, { ...context, side: "source" }),
      sideFacts(destinationChain, terms.destination, { ...context, side: "destination" }),
    ]);
    const base: PlanInput = {
      order,
      nowMs: this.now(),
      source,
      destination,
      actions: this.actionStatuses(order.order_id),
      fillTxids: journal.actionTxids(order.order_id, "fill"),
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
