import type { Logger } from "pino";
import {
  handsInstantRefundToService,
  type ActionKind,
  type FeeAllowance,
  type SignedTx,
} from "../chains/chain.js";
import type { ActionRow, Journal } from "../journal/journal.js";
import { DryRunError } from "../chains/dry-run.js";
import { AlreadyOnChainError } from "../chains/seam-errors.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { ClaimedAction } from "./fill-gate.js";
import type { FillSafety } from "./fill-safety.js";
import type { RunnerObserver } from "./observer.js";
import type { SolverChain } from "./solver-chain.js";

export interface ExecutionContext {
  journal: Journal;
  /** The service: instant refund signatures are handed to it. */
  orderbook: Pick<OrderbookClient, "instantRefund">;
  observer: RunnerObserver;
  logger: Logger;
  /** Inside this much time before an action's `mustConfirmByMs`, a pending transaction is re-priced every round. */
  urgencyMarginMs: number;
  /** A signed fill's safety rules, asked again with fresh facts before it is sent again or re-priced. */
  fillSafety: Pick<FillSafety, "recheck">;
  /** What a transaction of these actions (built, or a replacement) may pay above the fee ceiling, if anything. */
  feeAllowance: (
    actions: readonly Pick<ActionRow, "kind" | "request">[],
  ) => Promise<FeeAllowance | undefined>;
}

/**
 * Splits claimed actions into transactions: per chain and kind, as many as the chain's executor puts in
 * one transaction (Bitcoin redeems many HTLCs at once; EVM one call per transaction).
 */
export function batchActions<T extends Pick<ClaimedAction, "request">>(
  claimed: readonly T[],
  maxBatch: (chain: string, kind: ActionKind) => number,
): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of claimed) {
    const key = `${item.request.params.chain}/${item.request.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const batches: T[][] = [];
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    // An instant refund is one HTLC's pre-signature, handed over on its own.
    const size =
      first.request.kind === "instant_refund"
        ? 1
        : Math.max(1, maxBatch(first.request.params.chain, first.request.kind));
    for (let i = 0; i < group.length; i += size) batches.push(group.slice(i, i + size));
  }
  return batches;
}

/**
 * Carries out claimed actions of one chain and kind: build and sign one transaction (the executor checks
 * the chain once more and simulates), journal it, and only then broadcast it (or, for an instant refund,
 * hand it to the service where the family's instant refund is only the solver's half).
 */
export async function executeClaimed(
  claimed: readonly ClaimedAction[],
  chain: SolverChain,
  ctx: ExecutionContext,
): Promise<void> {
  const kind = claimed[0]?.request.kind;
  if (kind === undefined) return;
  const log = ctx.logger.child({ chain: chain.config.name, kind });
  const orderIds = claimed.map((c) => c.request.orderId);

  let signed: SignedTx;
  try {
    const requests = claimed.map((c) => c.request);
    const allowance = await ctx.feeAllowance(requests.map((request) => ({ kind: request.kind, request })));
    signed = await chain.executor.build(requests, allowance);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const done = error instanceof AlreadyOnChainError;
    for (const { action, request } of claimed) {
      if (done) ctx.journal.markActionSatisfied(action.id, message);
      else ctx.journal.failAction(action.id, message);
      ctx.observer.action(chain.config.name, request.kind, done ? "satisfied" : "failed");
    }
    if (done) log.warn({ orderIds, reason: message }, "the chain already shows this action; nothing sent");
    else if (error instanceof DryRunError) log.info({ orderIds }, message);
    else log.error({ err: error, orderIds }, "could not build transaction");
    return;
  }
  const carried = settleOmitted(claimed, signed, chain, ctx, log);
  const attempt = ctx.journal.recordSigned(
    carried.map((c) => c.action.id),
    signed,
  );
  log.info(
    {
      orderIds: carried.map((c) => c.request.orderId),
      txHash: signed.txHash,
      nonce: signed.nonce?.toString(),
    },
    "transaction signed and journaled",
  );
  try {
    const first = claimed[0];
    if (kind === "instant_refund" && first !== undefined && handsInstantRefundToService(chain.executor)) {
      await ctx.orderbook.instantRefund(first.request.orderId, signed.raw);
      ctx.journal.markDelivered(attempt.id);
      log.info({ orderIds, txHash: signed.txHash }, "instant refund signatures handed to the service");
    } else {
      await chain.executor.broadcast(signed);
      ctx.journal.markBroadcast(attempt.id);
      log.info({ orderIds, txHash: signed.txHash }, "transaction broadcast");
    }
    for (const { request } of carried) ctx.observer.action(chain.config.name, request.kind, "sent");
  } catch (error) {
    // The signed transaction stays journaled; the attempt follower sends it again next round.
    log.error(
      { err: error, orderIds, txHash: signed.txHash },
      "sending failed; will retry the journaled transaction",
    );
  }
}

/**
 * The actions a batch left out (their call would fail, or the chain already shows them) end here, each
 * alone: done, or failed and planned again; the rest are what the signed transaction carries.
 */
function settleOmitted(
  claimed: readonly ClaimedAction[],
  signed: SignedTx,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
): ClaimedAction[] {
  const omitted = new Map((signed.omitted ?? []).map((o) => [o.index, o]));
  if (omitted.size === 0) return [...claimed];
  const carried: ClaimedAction[] = [];
  claimed.forEach((item, index) => {
    const left = omitted.get(index);
    if (left === undefined) return carried.push(item);
    const { action, request } = item;
    if (left.alreadyDone) ctx.journal.markActionSatisfied(action.id, left.reason);
    else ctx.journal.failAction(action.id, left.reason);
    ctx.observer.action(chain.config.name, request.kind, left.alreadyDone ? "satisfied" : "failed");
    log.warn(
      { orderId: request.orderId, reason: left.reason },
      left.alreadyDone
        ? "the chain already shows this action; left out of the batch"
        : "left out of the batch: its call would fail",
    );
  });
  return carried;
}
