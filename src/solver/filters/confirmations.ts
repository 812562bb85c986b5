import type { Decision, PlanInput } from "../plan-types.js";

/** Confirmations are counted from the solver's own node, against the stricter of the order's and our own need. */
export function checkConfirmations({ order, source }: PlanInput): Decision | null {
  const needed = Math.max(order.source_swap.required_confirmations, source.minConfirmations, 1);
  const seen = source.state?.confirmations ?? 0;
  if (seen < needed) {
    return {
      outcome: "wait",
      reason: "source_unconfirmed",
      detail: `source has ${seen} of ${needed} confirmations on our node (service reports ${order.source_swap.current_confirmations})`,
    };
  }
  return null;
}
