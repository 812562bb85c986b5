/**
 * What one pass over an order needs from the journal, read in one transaction: a pass then decides on
 * one consistent picture of what the solver knows and did, and reads it once instead of piece by piece.
 */
import type { ActionKind } from "../chains/chain.js";
import type { Order } from "../orderbook/types.js";
import type { OrderTerms, SourceBacking } from "./exclusive-claims.js";
import type { ActionRow, ActionStatus, DecisionRow } from "./journal.js";

export interface OrderView {
  /** The order as the service last showed it. */
  snapshot: Order;
  /** Still followed: false once the solver settled it for good. */
  active: boolean;
  /** When the journal first saw the order. */
  firstSeenMs: number;
  /** The terms the solver committed to at its first fill or instant refund; null before. */
  terms: OrderTerms | null;
  actions: ActionRow[];
  /** Every transaction journaled for the order's fill, whatever became of it. */
  fillTxids: string[];
  /** The source locks the order's fill or instant refund relied on. */
  sourceLockIds: string[];
  /** Another order that the order's source HTLC already backs; null when none (or only this one). */
  sourceBacksOrder: string | null;
  lastDecision: DecisionRow | null;
}

/**
 * The source HTLC an order commits against, from its snapshot and frozen terms; null when the order names
 * a chain or asset the solver cannot read (the pass refuses it for that).
 */
export type BackingOf = (snapshot: Order, terms: OrderTerms | null) => SourceBacking | null;

/** Each action's status by kind. */
export function actionStatuses(actions: readonly ActionRow[]): Partial<Record<ActionKind, ActionStatus>> {
  const statuses: Partial<Record<ActionKind, ActionStatus>> = {};
  for (const action of actions) statuses[action.kind] = action.status;
  return statuses;
}
