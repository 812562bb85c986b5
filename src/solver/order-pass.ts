/**
 * One pass over one order, in a straight line: the journal's view, the chains' facts, the planner, the
 * record of what was decided. It returns the actions to take; sending them is the dispatcher's.
 */
import type { Logger } from "pino";
import type { Journal } from "../journal/journal.js";
import type { OrderAmounts } from "../pricing/order-check.js";
import type { DecisionLog } from "./decision-log.js";
import { UnsupportedChainError } from "./facts.js";
import type { ActionCandidate } from "./fill-gate.js";
import type { OrderFacts, TipOf } from "./order-facts.js";
import { OrderShapeError } from "./order-sides.js";
import { changedTerms, fillAmounts, statedTerms } from "./order-terms.js";
import type { QuoteCheck } from "./plan-types.js";
import { plan } from "./planner.js";
import type { ChainRegistry } from "./solver-chain.js";
import { sourceWaitOf, type WatchedOrders } from "./watched-orders.js";

export interface OrderPassOptions {
  journal: Journal;
  chains: ChainRegistry;
  facts: OrderFacts;
  decisions: DecisionLog;
  watched: WatchedOrders;
  /** Pricing's verdict on a fill of these amounts now (see RunnerOptions.checkQuote). */
  checkQuote: (amounts: OrderAmounts) => Promise<QuoteCheck>;
  /** Journals a settled order's profit and loss; never throws. */
  settlement?: { recordSettlement(orderId: string): Promise<void> } | undefined;
  logger: Logger;
}

export class OrderPass {
  constructor(private readonly options: OrderPassOptions) {}

  /** What to do for the order now; nothing for an order settled or unknown. */
  async run(orderId: string, tipOf: TipOf): Promise<ActionCandidate[]> {
    const { journal, facts, decisions, watched, chains } = this.options;
    const view = journal.orderView(orderId, facts.backingOf);
    if (view === null || !view.active) {
      watched.forget(orderId);
      return [];
    }
    const order = view.snapshot;
    const log = this.options.logger.child({ orderId });
    try {
      const stated = statedTerms(order, chains);
      const terms = view.terms ?? stated;
      const changed = view.terms === null ? [] : changedTerms(view.terms, stated);
      if (changed.length > 0)
        log.warn(
          { changed },
          "the service changed an order the solver acted on; keeping the terms it acted on",
        );
      // A new order's HTLCs are watched from its first plan on, not after it: its lock may land while
      // the plan reads the chain, and the watch would not know what the lock's event concerns.
      if (!watched.has(orderId)) watched.note(orderId, terms, "lock");
      const input = await facts.read(view, terms, log, tipOf);
      const fill = input.actions.fill;
      const fillIdle = fill === undefined || fill === "planned" || fill === "failed";
      if (fillIdle && input.destination.state !== null)
        input.quoteCheck = await this.options.checkQuote(fillAmounts(terms));
      const result = plan(input);
      const { decision } = result;
      watched.note(orderId, terms, decision?.outcome === "wait" ? sourceWaitOf(decision.reason) : null);
      if (decision) decisions.record(orderId, decision, log, view.lastDecision);
      if (result.done) {
        journal.markOrderDone(orderId);
        watched.forget(orderId);
        await this.options.settlement?.recordSettlement(orderId);
        log.info("order settled; no longer followed");
      }
      return result.actions.map((request) => ({ request, input }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof UnsupportedChainError)
        decisions.record(orderId, { outcome: "refuse", reason: "unsupported_asset", detail: message }, log);
      else if (error instanceof OrderShapeError)
        decisions.record(orderId, { outcome: "refuse", reason: "order_unusable", detail: message }, log);
      else {
        // Not a verdict on the order: an unexpected fault this pass. Nothing is sent; the next tries again.
        log.error({ err: error }, "could not process order this round");
        decisions.record(orderId, { outcome: "wait", reason: "processing_error", detail: message }, log);
      }
      return [];
    }
  }
}
