import type { Decision, PlanInput } from "../plan-types.js";
import { sameParty } from "./party.js";

/** The ids must follow from the order's own fields, or the service describes a different HTLC than it names. */
export function checkSwapIds({ source, destination }: PlanInput): Decision | null {
  for (const [side, facts] of [
    ["source", source],
    ["destination", destination],
  ] as const) {
    const computed = facts.computedSwapId;
    if (typeof computed !== "string") {
      return {
        outcome: "refuse",
        reason: "swap_id_mismatch",
        detail: `${side} swap id cannot be recomputed from the order's fields: ${computed.error}`,
      };
    }
    if (!sameParty(facts.params.swapId, computed)) {
      return {
        outcome: "refuse",
        reason: "swap_id_mismatch",
        detail: `${side} swap_id ${facts.params.swapId} does not recompute from the order's fields (expected ${computed})`,
      };
    }
  }
  return null;
}
