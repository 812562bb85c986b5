/**
 * The one rule for what a source deposit is worth to the solver: only locks with the required
 * confirmations count, each by its own depth, the largest few that are worth spending (`usableLocks`).
 * Unconfirmed value, dust and spent outputs count for nothing, whatever else sits at the address.
 */
import type { HtlcLock } from "../chains/chain.js";
import { earliestRefundHeight, lockedValue, usableLocks } from "../chains/htlc-locks.js";
import type { PlanInput } from "./plan-types.js";

export interface SourceCover {
  /** The locks relied on. */
  locks: HtlcLock[];
  value: bigint;
  /** The earliest of their refund heights: from then on the user can take part of it back. */
  refundableAtHeight: bigint | null;
  /** Confirmations each lock needed. */
  depth: number;
}

/** Confirmations a source lock needs: the stricter of the order's and the chain's own minimum, at least 1. */
export function requiredDepth({ order, source }: Pick<PlanInput, "order" | "source">): number {
  return Math.max(order.source_swap.required_confirmations, source.minConfirmations, 1);
}

/** The source value the solver may fill against now; null when the source chain was not read. */
export function sourceCover(input: Pick<PlanInput, "order" | "source">): SourceCover | null {
  const state = input.source.state;
  if (state === null) return null;
  const depth = requiredDepth(input);
  const locks = usableLocks(state, input.source.tipHeight, depth);
  return { locks, value: lockedValue(locks), refundableAtHeight: earliestRefundHeight(locks), depth };
}
