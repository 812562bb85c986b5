import { lockDepth, unspentLocks } from "../../chains/htlc-locks.js";
import type { Decision, PlanInput } from "../plan-types.js";
import { sourceCover } from "../source-cover.js";

/**
 * The deposit must be covered by locks with the required confirmations on our own node, each counted by
 * its own depth: confirmed dust beside an unconfirmed (evictable) deposit covers nothing.
 */
export function checkSourceCover(input: PlanInput): Decision | null {
  const cover = sourceCover(input);
  if (cover === null) return null;
  const amount = input.source.params.amount;
  if (cover.value >= amount) return null;
  const state = input.source.state;
  const tip = input.source.tipHeight;
  const seen = unspentLocks(state?.locks ?? []);
  const seenValue = seen.reduce((sum, lock) => sum + lock.value, 0n);
  const reason = seenValue < amount ? "source_underfunded" : "source_unconfirmed";
  const depths = seen.map((lock) => `${lock.value}@${lockDepth(lock, tip)}`).join(", ");
  return {
    outcome: "wait",
    reason,
    detail:
      `order says ${amount}; ${cover.value} is locked with ${cover.depth} confirmations on our node ` +
      `(service reports ${input.order.source_swap.current_confirmations}); unspent outputs value@depth: ${depths || "none"}`,
  };
}
