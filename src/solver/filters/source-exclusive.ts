import type { Decision, PlanInput } from "../plan-types.js";

/**
 * One source backs at most one money movement of ours. Once the user holds our half of an instant refund
 * they can take the source back at any moment, so no fill may follow, ever; and a source the solver
 * already filled (or instantly refunded) against for another order backs nothing more, whatever the
 * service says.
 */
export function checkSourceExclusive({ actions, sourceBacksOrder }: PlanInput): Decision | null {
  if (actions.instant_refund !== undefined) {
    return {
      outcome: "refuse",
      reason: "instant_refund_given",
      detail: "the solver signed its half of this source's instant refund; it never fills against it",
    };
  }
  if (sourceBacksOrder !== null) {
    return {
      outcome: "refuse",
      reason: "source_backs_another_order",
      detail: `this source HTLC already backs the solver's action for order ${sourceBacksOrder}`,
    };
  }
  return null;
}
