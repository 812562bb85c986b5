/**
 * The solver's fill is the transaction it journaled: on the destination, only locks created by one of
 * the fill's journaled transactions are its fill (on account chains, the one record at the swap id, and
 * only when the chain names the solver as its initiator). Anything else at the address changes nothing.
 */
import type { HtlcLock } from "../chains/chain.js";
import { ownLocks } from "../chains/htlc-locks.js";
import { sameParty } from "./filters/party.js";
import type { PlanInput } from "./plan-types.js";

export function ownFillLocks(input: Pick<PlanInput, "destination" | "fillTxids">): HtlcLock[] {
  const { state, solverParty } = input.destination;
  if (state === null) return [];
  if (state.onChain !== null && !sameParty(state.onChain.initiator, solverParty)) return [];
  return ownLocks(state.locks, new Set(input.fillTxids));
}

/** The destination holds a record no second fill could be added to (account chains: one order per id). */
export function destinationOccupied(input: Pick<PlanInput, "destination">): boolean {
  return input.destination.state?.locks.some((lock) => lock.fundingTx === null) ?? false;
}
