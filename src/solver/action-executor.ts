import type { Logger } from "pino";
import type { ActionRequest, SignedTx } from "../chains/chain.js";
import type { ActionRow, Journal } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { RunnerObserver } from "./observer.js";
import type { SolverChain } from "./solver-chain.js";

export interface ExecutionContext {
  journal: Journal;
  orderbook: OrderbookClient;
  observer: RunnerObserver;
  logger: Logger;
  /** Inside this much time before an action's `mustConfirmByMs`, a pending transaction is re-priced every round. */
  urgencyMarginMs: number;
}

/**
 * Splits one round's actions into transactions: per chain and kind, as many as the chain's executor
 * puts in one transaction (Bitcoin redeems many HTLCs at once; EVM one call per transaction).
 */
export function batchActions(
  requests: ActionRequest[],
  maxBatch: (chain: string) => number,
): ActionRequest[][] {
  const groups = new Map<string, ActionRequest[]>();
  for (const request of requests) {
    const key = `${request.params.chain}/${request.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), request]);
  }
  const batches: ActionRequest[][] = [];
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    // An instant refund is one HTLC's pre-signature, handed over on its own.
    const size = first.kind === "instant_refund" ? 1 : Math.max(1, maxBatch(first.params.chain));
    for (let i = 0; i < group.length; i += size) batches.push(group.slice(i, i + size));
  }
  return batches;
}

/**
 * Carries out a batch of actions on one chain: claim each journal slot, check the chain once more before
 * a fill, build and sign one transaction, journal it, and only then broadcast it (or, for an instant
 * refund, hand it to the service).
 */
export async function executeBatch(
  requests: ActionRequest[],
  chain: SolverChain,
  ctx: ExecutionContext,
): Promise<void> {
  const log = ctx.logger.child({ chain: chain.config.name, kind: requests[0]?.kind });
  const claimed: { request: ActionRequest; action: ActionRow }[] = [];
  for (const request of requests) {
    const action = await claim(request, chain, ctx);
    if (action) claimed.push({ request, action });
  }
  if (claimed.length === 0) return;
  const orderIds = claimed.map((c) => c.request.orderId);

  let signed: SignedTx;
  try {
    signed = await chain.executor.build(claimed.map((c) => c.request));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const { action, request } of claimed) {
      ctx.journal.failAction(action.id, message);
      ctx.observer.action(chain.config.name, request.kind, "failed");
    }
    log.error({ err: error, orderIds }, "could not build transaction");
    return;
  }
  const attempt = ctx.journal.recordSigned(
    claimed.map((c) => c.action.id),
    signed,
  );
  log.info(
    { orderIds, txHash: signed.txHash, nonce: signed.nonce?.toString() },
    "transaction signed and journaled",
  );
  const kind = claimed[0]?.request.kind;
  try {
    if (kind === "instant_refund") {
      await ctx.orderbook.instantRefund(claimed[0]!.request.orderId, signed.raw);
      ctx.journal.markDelivered(attempt.id);
      log.info({ orderIds, txHash: signed.txHash }, "instant refund signatures handed to the service");
    } else {
      await chain.executor.broadcast(signed);
      ctx.journal.markBroadcast(attempt.id);
      log.info({ orderIds, txHash: signed.txHash }, "transaction broadcast");
    }
    for (const { request } of claimed) ctx.observer.action(chain.config.name, request.kind, "sent");
  } catch (error) {
    // The signed transaction stays journaled; the attempt follower sends it again next round.
    log.error(
      { err: error, orderIds, txHash: signed.txHash },
      "sending failed; will retry the journaled transaction",
    );
  }
}

/** The action's journal slot, when nothing of it is signed yet; null when it is under way or done. */
async function claim(
  request: ActionRequest,
  chain: SolverChain,
  ctx: ExecutionContext,
): Promise<ActionRow | null> {
  const log = ctx.logger.child({ orderId: request.orderId, kind: request.kind, chain: chain.config.name });
  const { action } = ctx.journal.claimAction(request);
  if (action.status !== "planned" && action.status !== "failed") {
    log.debug({ status: action.status }, "action already under way");
    return null;
  }
  if (action.status === "failed") ctx.journal.retryAction(action.id, request);
  if (request.kind === "fill") {
    // Never fill twice: the chain may show a fill the journal lost (or one made by another instance).
    const state = await chain.reader.readHtlc(request.params);
    if (state.initiated) {
      ctx.journal.markActionSatisfied(action.id, "destination HTLC already initiated on chain");
      ctx.observer.action(chain.config.name, request.kind, "satisfied");
      log.warn("destination already initiated on chain; not filling again");
      return null;
    }
  }
  return action;
}
