/**
 * The solver's fill is the transaction it journaled: on the destination, only locks created by one of
 * the fill's journaled transactions are its fill (on EVM, the one record at the swap id, whose id commits
 * to its initiator, and only when the chain names the solver as that initiator and a fill is journaled).
 * Anything else at the address changes nothing: dust at a Bitcoin address, a user's own initiation of the
 * same terms at a Solana address, a record a user funded at an EVM swap id in the solver's name.
 */
import type { HtlcLock } from "../chains/chain.js";
import { ownLocks } from "../chains/htlc-locks.js";
import { sameParty } from "./filters/party.js";
import type { PlanInput } from "./plan-types.js";

export function ownFillLocks(input: Pick<PlanInput, "destination" | "fillTxids">): HtlcLock[] {
  const { state, solverParty } = input.destination;
  // A fill the solver never signed cannot be on chain: a record funded by someone else in its name
  // (EVM `initiateOnBehalf` naming the solver as initiator) is theirs, and the source behind it unjudged.
  if (state === null || input.fillTxids.length === 0) return [];
  if (state.onChain !== null && !sameParty(state.onChain.initiator, solverParty)) return [];
  return ownLocks(state.locks, new Set(input.fillTxids));
}

/** The destination holds a record no fill could be added to now (account chains: one record per id). */
export function destinationOccupied(input: Pick<PlanInput, "destination">): boolean {
  return input.destination.state?.occupied === true;
}
