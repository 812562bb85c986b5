/**
 * What is done with a journaled transaction that has not landed: sent again, re-priced, or replaced by
 * one that moves nothing once a fill it carries is no longer safe. Every replacement is journaled before
 * it is sent, and the original stays the one followed when the node keeps it.
 */
import type { Logger } from "pino";
import type { SignedTx } from "../chains/chain.js";
import { RefusedForGoodError, cannotAnswerNow } from "../chains/seam-errors.js";
import type { AttemptPurpose, AttemptRow } from "../journal/journal.js";
import type { ExecutionContext } from "./action-executor.js";
import type { SolverChain } from "./solver-chain.js";

/**
 * A pending transaction is re-priced after `bumpAfterMs`, or at once when one of its actions must be
 * mined soon (a source redeem close to the source's refund height): fees escalate as the deadline nears.
 */
export function bumpDue(
  attempt: Pick<AttemptRow, "createdAtMs" | "actionIds">,
  ctx: Pick<ExecutionContext, "journal" | "urgencyMarginMs">,
  bumpAfterMs: number,
  nowMs: number,
): boolean {
  if (nowMs - attempt.createdAtMs > bumpAfterMs) return true;
  return attempt.actionIds.some((id) => {
    const deadline = ctx.journal.action(id).request.mustConfirmByMs;
    return deadline !== undefined && deadline - nowMs < ctx.urgencyMarginMs;
  });
}

/** Every action of the attempt moves value to the solver (redeems and refunds). */
function paysTheSolver(attempt: AttemptRow, ctx: ExecutionContext): boolean {
  return attempt.actionIds.every((id) => {
    const kind = ctx.journal.action(id).kind;
    return kind === "redeem" || kind === "refund";
  });
}

/**
 * Before a fill is sent again or re-priced, its safety rules are asked once more, for every fill the
 * attempt carries: when any of them is no longer safe (the source refunded or about to be, the deadline
 * passed) the attempt is cancelled, whatever the others' facts (a fill that cannot be judged now is no
 * reason to keep sending one known to be unsafe); when none is unsafe but some cannot be judged now, the
 * attempt is left as it is this round. True when nothing more may be done with the attempt.
 */
export async function cancelledInstead(
  attempt: AttemptRow,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
): Promise<boolean> {
  const { journal } = ctx;
  if (attempt.purpose !== "action") {
    // A cancel only ever gets re-sent or out-paid by another cancel, never turned back into the fill; an
    // operator's transaction carries no fill to judge.
    return false;
  }
  const fills = attempt.actionIds.map((id) => journal.action(id)).filter((a) => a.kind === "fill");
  const judged = await Promise.all(
    fills.map(async (fill) => ({ fill, verdict: await ctx.fillSafety.recheck(fill) })),
  );
  const unsafe = judged.filter(({ verdict }) => verdict?.outcome === "refuse");
  const unjudged = judged.filter(({ verdict }) => verdict?.outcome === "wait");
  for (const { fill, verdict } of unsafe) {
    log.warn(
      { orderId: fill.orderId, reason: verdict?.reason, detail: verdict?.detail },
      "fill no longer safe; cancelling it",
    );
  }
  for (const { fill, verdict } of unjudged) {
    log.warn(
      { orderId: fill.orderId, reason: verdict?.reason, detail: verdict?.detail },
      unsafe.length > 0
        ? "fill cancelled with the unsafe fill it is sent with; its own safety cannot be confirmed now"
        : "fill not sent again this round: its safety cannot be confirmed now",
    );
  }
  if (unsafe.length > 0) {
    await cancel(attempt, chain, ctx, log);
    return true;
  }
  return unjudged.length > 0;
}

export async function rebroadcast(
  attempt: AttemptRow,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
  nowMs: number,
): Promise<void> {
  const { journal, observer } = ctx;
  if (attempt.state === "replaced") {
    // Its successor carries the actions; a replaced transaction the node forgot stays forgotten.
    journal.markAttemptFailed(attempt.id, "dropped", "replaced and no longer known to the node");
    return;
  }
  try {
    await chain.executor.broadcast(attempt);
  } catch (error) {
    // A redeem or refund pays the solver whichever of its transactions lands, so one whose input is gone
    // (an output evicted or spent by its sender) is given up and built again from the chain's facts,
    // without that input: one bad output never holds the rest of a batch. A fill is never given up on a
    // node's word alone; it ends only when the chain proves it dead.
    if (error instanceof RefusedForGoodError && paysTheSolver(attempt, ctx)) {
      journal.markAttemptFailed(
        attempt.id,
        "dropped",
        error instanceof Error ? error.message : String(error),
      );
      observer.attempt(chain.config.name, "dropped");
      log.warn({ err: error }, "journaled transaction rejected for good; its actions are planned again");
      return;
    }
    // Refused for now (a fee below what the node takes today): a better-paying replacement, when due. No
    // node answering says nothing of the fee: the same bytes go again next round, at no higher price.
    const refusedForNow = !(error instanceof RefusedForGoodError) && !cannotAnswerNow(error);
    if (refusedForNow && bumpDue(attempt, ctx, chain.config.bumpAfterMs, nowMs)) {
      log.warn({ err: error }, "the node refuses the journaled transaction; replacing it");
      await bump(attempt, chain, ctx, log);
      return;
    }
    throw error;
  }
  if (attempt.state === "signed") journal.markBroadcast(attempt.id);
  observer.attempt(chain.config.name, "rebroadcast");
  log.info("re-broadcast the journaled transaction");
}

export async function bump(
  attempt: AttemptRow,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
): Promise<void> {
  // An operator's transaction is the operator's to price again: a stuck one gives way to one moving nothing.
  if (attempt.purpose !== "action") return cancel(attempt, chain, ctx, log);
  const actions = attempt.actionIds.map((id) => ctx.journal.action(id));
  const allowance = await ctx.feeAllowance(actions);
  const replacement = await chain.executor.bump(
    attempt,
    actions.map((a) => a.request),
    allowance,
  );
  if (replacement === null) {
    log.warn("transaction pending and cannot be re-priced further");
    return;
  }
  await replaceWith(attempt, replacement, "action", chain, ctx);
  ctx.observer.attempt(chain.config.name, "bumped");
  log.info(
    { replacement: replacement.txHash, terms: replacement.terms },
    "replaced a stuck transaction with a better-paying one",
  );
}

/** Takes the attempt's place with a transaction that moves nothing; journaled before it is sent. */
async function cancel(
  attempt: AttemptRow,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
): Promise<void> {
  const replacement = await chain.executor.cancel(attempt);
  if (replacement === null) {
    // Not sent again either: where the family cannot displace it, it may still expire unlanded.
    log.error(
      "fill no longer safe and cannot be cancelled (it pays more than a cancel may, or the chain has no cancel)",
    );
    return;
  }
  await replaceWith(attempt, replacement, "cancel", chain, ctx);
  ctx.observer.attempt(chain.config.name, "cancelled");
  log.warn({ cancel: replacement.txHash }, "cancel sent in the fill's place");
}

async function replaceWith(
  attempt: AttemptRow,
  replacement: SignedTx,
  purpose: AttemptPurpose,
  chain: SolverChain,
  ctx: ExecutionContext,
): Promise<void> {
  const { journal } = ctx;
  const next =
    purpose === "cancel"
      ? journal.recordCancel(attempt.actionIds, replacement)
      : journal.recordSigned(attempt.actionIds, replacement);
  journal.markReplaced(attempt.id);
  try {
    await chain.executor.broadcast(replacement);
  } catch (error) {
    // The node keeps the original (a replacement must out-pay it and what spends it): the original stays
    // the one followed, and a later round replaces it with more.
    journal.markAttemptFailed(next.id, "dropped", error instanceof Error ? error.message : String(error));
    journal.restoreReplaced(attempt.id);
    throw error;
  }
  journal.markBroadcast(next.id);
}
