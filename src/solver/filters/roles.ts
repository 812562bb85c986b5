import type { Decision, PlanInput } from "../plan-types.js";
import { sameParty } from "./party.js";

/** The solver must be the one who redeems the source and the one who locks the destination. */
export function checkRoles({ order, source, destination }: PlanInput): Decision | null {
  if (!sameParty(order.source_swap.redeemer, source.solverParty)) {
    return {
      outcome: "refuse",
      reason: "solver_not_redeemer",
      detail: `source redeemer ${order.source_swap.redeemer} is not the solver's ${source.solverParty}`,
    };
  }
  if (!sameParty(order.destination_swap.initiator, destination.solverParty)) {
    return {
      outcome: "refuse",
      reason: "solver_not_initiator",
      detail: `destination initiator ${order.destination_swap.initiator} is not the solver's ${destination.solverParty}`,
    };
  }
  return null;
}
