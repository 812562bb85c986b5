import type { ActionKind, ActionRequest, HtlcLock } from "../chains/chain.js";
import { earliestRefundHeight, refundableLocks, unspentLocks, usableLocks } from "../chains/htlc-locks.js";
import type { ActionStatus } from "../journal/journal.js";
import { checkDeadline } from "./filters/deadline.js";
import { checkQuote } from "./filters/quote.js";
import { checkRoles } from "./filters/roles.js";
import { checkSecretHash, checkSecretUsable } from "./filters/secret-hash.js";
import { checkSourceCover } from "./filters/source-cover.js";
import { checkSourceDeposit } from "./filters/source-deposit.js";
import { checkSourceExclusive } from "./filters/source-exclusive.js";
import { checkSwapIds } from "./filters/swap-ids.js";
import { checkTimelocks } from "./filters/timelocks.js";
import { knownSecret } from "./known-secret.js";
import { destinationOccupied, ownFillLocks } from "./own-fill.js";
import type { Decision, Plan, PlanInput } from "./plan-types.js";

/**
 * Every rule that keeps a fill safe, in the order a reader would check them: the order, the source as the
 * chain shows it, what the solver already did with that source, then time. They are asked before a fill
 * is planned, again right before it is claimed (`fillVerdict`), and again before a signed fill is sent
 * once more (`fillSafetyVerdict`): a fill no longer safe is cancelled, never re-sent.
 */
const SAFETY_FILTERS: readonly ((input: PlanInput) => Decision | null)[] = [
  checkSecretHash,
  checkSecretUsable,
  checkRoles,
  checkSourceDeposit,
  checkSwapIds,
  checkSourceExclusive,
  checkDeadline,
  checkSourceCover,
  checkTimelocks,
];

/**
 * Refusals after which the solver must not hand out its half of an instant refund: it could not sign for
 * the source, there is nothing left to refund, or the source already backs a fill of another order (a
 * refund would let the user take that order's fill and their deposit both).
 */
const NO_INSTANT_REFUND = new Set([
  "solver_not_redeemer",
  "solver_not_initiator",
  "swap_id_mismatch",
  "source_already_spent",
  "source_backs_another_order",
  "instant_refund_given",
]);

/**
 * Decides what to do for one order now. Pure: the same facts always give the same plan, so every safety
 * rule is testable without a chain.
 */
export function plan(input: PlanInput): Plan {
  const actions: ActionRequest[] = [];
  const redeem = planSourceRedeem(input);
  if (redeem) actions.push(redeem);
  const refund = planDestinationRefund(input);
  if (refund) actions.push(refund);

  const fill = planFill(input);
  if ("action" in fill) actions.push(fill.action);
  const decision = "decision" in fill ? fill.decision : null;
  const instantRefund = planInstantRefund(input, decision);
  if (instantRefund) actions.push(instantRefund);
  return { actions, decision, done: actions.length === 0 && isDone(input, decision) };
}

/** The first fill rule these facts break, price last, or null when a fill may go out. */
export function fillVerdict(input: PlanInput): Decision | null {
  return fillSafetyVerdict(input) ?? checkQuote(input);
}

/** The first safety rule these facts break (price aside: a fill already signed keeps its price). */
export function fillSafetyVerdict(input: PlanInput): Decision | null {
  for (const filter of SAFETY_FILTERS) {
    const decision = filter(input);
    if (decision) return decision;
  }
  return null;
}

/** Our fill reached the destination chain (at any depth), or the journal saw it mined. */
function weFilled(input: PlanInput): boolean {
  return ownFillLocks(input).length > 0 || input.actions.fill === "confirmed";
}

/** Nothing of this action is signed: it may be (re)built. A crash between claim and signing leaves `planned`. */
function idle(status: ActionStatus | undefined): boolean {
  return status === undefined || status === "planned" || status === "failed";
}

/** Redeems the mined, unspent source locks worth spending as soon as a secret is known for our fill. */
function planSourceRedeem(input: PlanInput): ActionRequest | null {
  const state = input.source.state;
  if (state === null || !idle(input.actions.redeem) || !weFilled(input)) return null;
  const locks = usableLocks(state, input.source.tipHeight, 1);
  if (locks.length === 0) return null;
  const secret = knownSecret(input);
  if (secret === null) return null;
  const redeem = request(input, "redeem", input.source, locks, secret);
  const refundableAt = earliestRefundHeight(locks);
  if (refundableAt === null) return redeem;
  // Once a lock is refundable the user can take it back: the redeem must be mined before that.
  const blocksLeft = refundableAt - input.source.tipHeight - 1n;
  const msLeft = blocksLeft > 0n ? Number(blocksLeft) * input.source.minBlockTimeMs : 0;
  return { ...redeem, mustConfirmByMs: input.nowMs + msLeft };
}

/**
 * Refunds our own fill once every lock of it can be refunded; the refund also sweeps others' outputs at
 * the address that are past their own lock (they pay the solver's key), never immature or unconfirmed ones.
 */
function planDestinationRefund(input: PlanInput): ActionRequest | null {
  const state = input.destination.state;
  if (state === null || !idle(input.actions.refund)) return null;
  const own = unspentLocks(ownFillLocks(input));
  if (own.length === 0) return null;
  const tip = input.destination.tipHeight;
  const refundable = refundableLocks(state.locks, tip);
  const ownRefundable = own.every((lock) => refundable.some((r) => r.id === lock.id));
  if (!ownRefundable) return null;
  return request(input, "refund", input.destination, refundable);
}

function planFill(input: PlanInput): { action: ActionRequest } | { decision: Decision | null } {
  if (!idle(input.actions.fill)) return { decision: null };
  if (input.destination.state === null) {
    return {
      decision: {
        outcome: "wait",
        reason: "destination_chain_unreadable",
        detail: `could not read ${input.destination.params.chain}`,
      },
    };
  }
  // The chain is the final truth: our fill already there.
  if (ownFillLocks(input).length > 0) return { decision: null };
  // Someone else's record holds the address (a user who initiated the terms themselves): a fill would
  // fail until it closes.
  if (destinationOccupied(input)) {
    return {
      decision: {
        outcome: "wait",
        reason: "destination_occupied",
        detail: `${input.destination.params.chain} holds an HTLC at ${input.destination.params.swapId} that is not the solver's fill`,
      },
    };
  }
  const decision = fillVerdict(input);
  if (decision) return { decision };
  return { action: request(input, "fill", input.destination, []) };
}

/**
 * A source the solver declines for good would otherwise stay locked until its timelock: where the family
 * can, hand the user our half of the instant refund. Never for a passing reason (`wait`), never once any
 * fill of ours exists or was ever attempted, or the user could take both sides.
 */
function planInstantRefund(input: PlanInput, decision: Decision | null): ActionRequest | null {
  if (decision?.outcome !== "refuse" || NO_INSTANT_REFUND.has(decision.reason)) return null;
  if (!input.source.offersInstantRefund || input.source.state === null) return null;
  if (input.actions.fill !== undefined || input.fillTxids.length > 0 || weFilled(input)) return null;
  if (!idle(input.actions.instant_refund)) return null;
  const refundAddress = input.order.source_swap.initiator;
  if (refundAddress === "") return null;
  const locks = usableLocks(input.source.state, input.source.tipHeight, 1);
  if (locks.length === 0) return null;
  return { ...request(input, "instant_refund", input.source, locks), refundAddress };
}

function isDone(input: PlanInput, decision: Decision | null): boolean {
  const source = input.source.state;
  const destination = input.destination.state;
  if (source === null || destination === null) return false;
  const inFlight = Object.values(input.actions).some(
    (s) => s === "planned" || s === "signed" || s === "broadcast",
  );
  if (inFlight) return false;
  const own = ownFillLocks(input);
  if (own.length > 0) {
    if (unspentLocks(own).length > 0) return false;
    // Our fill is spent: refunded, or redeemed and then the source is ours once we redeem it.
    if (own.every((lock) => lock.spend?.kind === "refund")) return true;
    return input.actions.redeem === "confirmed" || unspentLocks(source.locks).length === 0;
  }
  // Never filled and never will be: nothing of ours is at stake.
  const neverFilled = input.actions.fill === undefined || input.actions.fill === "failed";
  const pastDeadline = input.nowMs > input.order.additional_data.deadline * 1000;
  return neverFilled && pastDeadline && decision !== null;
}

function request(
  input: PlanInput,
  kind: ActionKind,
  side: PlanInput["source"],
  locks: readonly HtlcLock[],
  secret?: string,
): ActionRequest {
  return {
    kind,
    orderId: input.order.order_id,
    params: side.params,
    ...(locks.length === 0 ? {} : { locks: locks.map((lock) => lock.id) }),
    ...(secret === undefined ? {} : { secret }),
  };
}
