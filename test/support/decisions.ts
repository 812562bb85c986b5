import type { DecisionRow, Journal } from "../../src/journal/journal.js";

/**
 * The decision that led the solver to hand out an order's instant refund. Rounds after the refund may
 * journal "instant_refund_given" on top of it (the same refusal seen through the journal's claim), so the
 * journal's last decision depends on timing and cannot stand for it.
 */
export function decisionBeforeInstantRefund(journal: Journal, orderId: string): DecisionRow | undefined {
  const oldestFirst = journal.decisions(orderId).reverse();
  const given = oldestFirst.findIndex((d) => d.reason === "instant_refund_given");
  const before = given === -1 ? oldestFirst : oldestFirst.slice(0, given);
  return before.at(-1);
}
