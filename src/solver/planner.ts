import { createHash } from "node:crypto";
import type { ActionKind, ActionRequest } from "../chains/chain.js";
import type { ActionStatus } from "../journal/journal.js";
import { checkConfirmations } from "./filters/confirmations.js";
import { checkDeadline } from "./filters/deadline.js";
import { sameParty } from "./filters/party.js";
import { checkQuote } from "./filters/quote.js";
import { checkRoles } from "./filters/roles.js";
import { checkSecretHash } from "./filters/secret-hash.js";
import { checkSourceDeposit } from "./filters/source-deposit.js";
import { checkSwapIds } from "./filters/swap-ids.js";
import { checkTimelocks } from "./filters/timelocks.js";
import type { Decision, Plan, PlanInput } from "./plan-types.js";

/** Every rule a fill must pass, in the order a reader would check them: the order, then the chain, then price. */
const FILL_FILTERS: readonly ((input: PlanInput) => Decision | null)[] = [
  checkSecretHash,
  checkRoles,
  checkSourceDeposit,
  checkSwapIds,
  checkDeadline,
  checkConfirmations,
  checkTimelocks,
  checkQuote,
];

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

/** A secret is usable only if it hashes to the order's secret hash; anything else the service says is ignored. */
export function knownSecret(input: PlanInput): string | null {
  const candidates = [
    input.destination.state?.secret,
    input.order.destination_swap.secret,
    input.order.source_swap.secret,
  ];
  for (const candidate of candidates) {
    if (candidate && secretMatches(candidate, input.order.source_swap.secret_hash))
      return candidate.toLowerCase();
  }
  return null;
}

function secretMatches(secret: string, secretHash: string): boolean {
  if (!/^([0-9a-f]{2})+$/i.test(secret)) return false;
  return createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex") === secretHash.toLowerCase();
}

function weFilled(input: PlanInput): boolean {
  const state = input.destination.state;
  const onChainInitiator = state?.onChain?.initiator;
  if (
    state?.initiated &&
    (onChainInitiator === undefined || sameParty(onChainInitiator, input.destination.solverParty))
  ) {
    return true;
  }
  return input.actions.fill === "confirmed";
}

/** Nothing of this action is signed: it may be (re)built. A crash between claim and signing leaves `planned`. */
function idle(status: ActionStatus | undefined): boolean {
  return status === undefined || status === "planned" || status === "failed";
}

function planSourceRedeem(input: PlanInput): ActionRequest | null {
  const state = input.source.state;
  if (!state?.initiated || state.redeemed || state.refunded) return null;
  if (!idle(input.actions.redeem) || !weFilled(input)) return null;
  const secret = knownSecret(input);
  if (secret === null) return null;
  const redeem = request(input, "redeem", input.source, secret);
  if (state.refundableAtHeight === null) return redeem;
  // Once the source is refundable the user can take it back: the redeem must be mined before that.
  const blocksLeft = state.refundableAtHeight - input.source.tipHeight - 1n;
  const msLeft = blocksLeft > 0n ? Number(blocksLeft) * input.source.minBlockTimeMs : 0;
  return { ...redeem, mustConfirmByMs: input.nowMs + msLeft };
}

function planDestinationRefund(input: PlanInput): ActionRequest | null {
  const state = input.destination.state;
  if (!state?.initiated || state.redeemed || state.refunded || state.refundableAtHeight === null) return null;
  if (!idle(input.actions.refund) || !weFilled(input)) return null;
  if (input.destination.tipHeight < state.refundableAtHeight) return null;
  return request(input, "refund", input.destination);
}

function planFill(input: PlanInput): { action: ActionRequest } | { decision: Decision | null } {
  if (!idle(input.actions.fill)) return { decision: null };
  const destination = input.destination.state;
  if (destination === null) {
    return {
      decision: {
        outcome: "wait",
        reason: "destination_chain_unreadable",
        detail: `could not read ${input.destination.params.chain}`,
      },
    };
  }
  // The chain is the final truth: an HTLC already there means a fill happened, whatever the journal says.
  if (destination.initiated || destination.redeemed || destination.refunded) return { decision: null };
  for (const filter of FILL_FILTERS) {
    const decision = filter(input);
    if (decision) return { decision };
  }
  return { action: request(input, "fill", input.destination) };
}

/** Refusals that leave the solver unable to sign for the source HTLC, or with nothing left to refund. */
const NO_INSTANT_REFUND = new Set([
  "solver_not_redeemer",
  "solver_not_initiator",
  "swap_id_mismatch",
  "source_already_spent",
]);

/**
 * A Bitcoin source the solver declines would otherwise stay locked until its timelock: hand the user our
 * half of the instant refund. Never once a fill exists, or the user could take both sides.
 */
function planInstantRefund(input: PlanInput, decision: Decision | null): ActionRequest | null {
  if (decision?.outcome !== "refuse" || NO_INSTANT_REFUND.has(decision.reason)) return null;
  if (input.source.family !== "bitcoin") return null;
  const source = input.source.state;
  if (!source?.initiated || source.redeemed || source.refunded) return null;
  if (input.actions.fill !== undefined || input.destination.state?.initiated !== false) return null;
  if (!idle(input.actions.instant_refund)) return null;
  const refundAddress = input.order.source_swap.initiator;
  if (refundAddress === "") return null;
  return { ...request(input, "instant_refund", input.source), refundAddress };
}

function isDone(input: PlanInput, decision: Decision | null): boolean {
  const source = input.source.state;
  const destination = input.destination.state;
  if (source === null || destination === null) return false;
  const inFlight = Object.values(input.actions).some(
    (s) => s === "planned" || s === "signed" || s === "broadcast",
  );
  if (inFlight) return false;
  const destinationSettled = !destination.initiated || destination.redeemed || destination.refunded;
  const sourceSettled = source.redeemed || source.refunded;
  if (destination.initiated && !destination.redeemed && !destination.refunded) return false;
  if (sourceSettled && destinationSettled) return true;
  // Never filled and never will be: nothing of ours is at stake.
  const pastDeadline = input.nowMs > input.order.additional_data.deadline * 1000;
  return !destination.initiated && input.actions.fill === undefined && pastDeadline && decision !== null;
}

function request(
  input: PlanInput,
  kind: ActionKind,
  side: PlanInput["source"],
  secret?: string,
): ActionRequest {
  return {
    kind,
    orderId: input.order.order_id,
    params: side.params,
    ...(secret === undefined ? {} : { secret }),
  };
}
