/**
 * A signed fill's safety asked again with the chains' facts of now, under the terms it was claimed with
 * (the price is not asked again: the fill is committed to it). The attempt follower asks it before a
 * fill is sent again or re-priced; a fill no longer safe is cancelled, never re-sent.
 */
import type { Logger } from "pino";
import type { ActionRow, Journal } from "../journal/journal.js";
import { refreshInput } from "./fill-gate.js";
import type { OrderFacts } from "./order-facts.js";
import type { Decision } from "./plan-types.js";
import { fillSafetyVerdict } from "./planner.js";

export class FillSafety {
  constructor(
    private readonly journal: Journal,
    private readonly facts: OrderFacts,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** The first safety rule the fill breaks now; null when it may be sent. */
  async recheck(fill: ActionRow): Promise<Decision | null> {
    const view = this.journal.orderView(fill.orderId, this.facts.backingOf);
    if (view === null || view.terms === null) {
      return {
        outcome: "wait",
        reason: "order_unknown",
        detail: `the journal holds no order or terms for ${fill.orderId}`,
      };
    }
    const input = await this.facts.read(view, view.terms, this.logger.child({ orderId: fill.orderId }));
    // What the solver did while the chains were read counts too.
    return fillSafetyVerdict(refreshInput(this.journal, input, this.now()));
  }
}
