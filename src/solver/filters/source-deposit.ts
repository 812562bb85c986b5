import { hasLocks, unspentLocks } from "../../chains/htlc-locks.js";
import type { Decision, PlanInput } from "../plan-types.js";
import { sameParty } from "./party.js";

/** The deposit as the chain shows it must be exactly the order's: same parties, amount and timelock, unspent. */
export function checkSourceDeposit({ source }: PlanInput): Decision | null {
  const state = source.state;
  if (state === null) {
    return {
      outcome: "wait",
      reason: "source_chain_unreadable",
      detail: `could not read ${source.params.chain}`,
    };
  }
  if (!hasLocks(state)) {
    return { outcome: "wait", reason: "source_not_initiated", detail: "no deposit on the source chain yet" };
  }
  if (unspentLocks(state.locks).length === 0) {
    return {
      outcome: "refuse",
      reason: "source_already_spent",
      detail: "every output of the source HTLC is already redeemed or refunded",
    };
  }
  const expected = source.params;
  const onChain = state.onChain;
  if (onChain !== null) {
    const mismatch =
      fieldMismatch(expected.amount, onChain.amount, "amount") ??
      (sameParty(onChain.redeemer, expected.redeemer)
        ? null
        : `redeemer: order says ${expected.redeemer}, chain has ${onChain.redeemer}`) ??
      (sameParty(onChain.initiator, expected.initiator)
        ? null
        : `initiator: order says ${expected.initiator}, chain has ${onChain.initiator}`) ??
      fieldMismatch(expected.timelock, onChain.timelock, "timelock");
    if (mismatch !== null) {
      return { outcome: "refuse", reason: "source_differs_from_chain", detail: mismatch };
    }
  }
  return null;
}

function fieldMismatch(expected: bigint, actual: bigint, name: string): string | null {
  return expected === actual ? null : `${name}: order says ${expected}, chain has ${actual}`;
}
