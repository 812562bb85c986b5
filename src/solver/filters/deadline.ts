import type { Decision, PlanInput } from "../plan-types.js";

/** The live network does not fill after the attested deadline; neither do we. */
export function checkDeadline({ order, nowMs }: PlanInput): Decision | null {
  const deadlineMs = order.additional_data.deadline * 1000;
  if (nowMs > deadlineMs) {
    return {
      outcome: "refuse",
      reason: "deadline_passed",
      detail: `attested deadline ${new Date(deadlineMs).toISOString()} has passed`,
    };
  }
  return null;
}
