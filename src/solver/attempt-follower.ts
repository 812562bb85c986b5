import PQueue from "p-queue";
import type { Logger } from "pino";
import { handsInstantRefundToService, type FailedAction, type TxStatus } from "../chains/chain.js";
import type { AttemptRow } from "../journal/journal.js";
import { recordFeePaid } from "../journal/pnl-store.js";
import type { ExecutionContext } from "./action-executor.js";
import { bump, bumpDue, cancelledInstead, rebroadcast } from "./attempt-replacement.js";
import type { ChainRegistry, SolverChain } from "./solver-chain.js";

/**
 * Follows every journaled transaction that is not final: marks it confirmed or failed, re-broadcasts the
 * journaled bytes when the node forgot it, and replaces it with a better-paying one when it is stuck.
 */
export async function followAttempts(
  chains: ChainRegistry,
  ctx: ExecutionContext,
  nowMs = Date.now(),
  /** `all`: look for nonce gaps on every chain (at start); else only where an attempt just ended. */
  gapCheck: "all" | "ended" = "ended",
): Promise<void> {
  const { journal, logger } = ctx;
  const ended = new Set<string>(gapCheck === "all" ? chains.keys() : []);
  const attempts = journal.liveAttemptRows();
  const statuses = readStatuses(attempts, chains, ctx);
  for (const attempt of attempts) {
    const chain = chains.get(attempt.chain);
    if (!chain) {
      logger.error(
        { chain: attempt.chain, txHash: attempt.txHash },
        "journaled transaction on an unconfigured chain",
      );
      continue;
    }
    try {
      const log = logger.child({ chain: attempt.chain, txHash: attempt.txHash });
      // Every attempt on a known chain has its status read, except those handed to the service.
      const read = statuses.get(attempt.id);
      if (read === undefined) await redeliver(attempt, ctx, log);
      else await followOne(attempt, chain, ctx, log, nowMs, read);
    } catch (error) {
      logger.warn(
        { err: error, chain: attempt.chain, txHash: attempt.txHash },
        "could not follow transaction",
      );
    }
    const state = journal.attempt(attempt.id).state;
    if (state === "dropped" || state === "failed") ended.add(attempt.chain);
  }
  for (const name of ended) {
    const chain = chains.get(name);
    if (chain) await fillNonceGaps(chain, ctx);
  }
}

/** Status reads of one follow under way at once. */
const STATUS_READS_IN_FLIGHT = 8;

type StatusRead = Promise<{ status: TxStatus } | { error: unknown }>;

/**
 * Every attempt's status, read side by side: one read after another, the follow of the transactions of
 * 1,000 open orders held the round for 3-8 s. Only the reads overlap; what each status calls for is done
 * one attempt at a time, in journal order, as before.
 */
function readStatuses(
  attempts: readonly AttemptRow[],
  chains: ChainRegistry,
  ctx: ExecutionContext,
): Map<number, StatusRead> {
  const reads = new PQueue({ concurrency: STATUS_READS_IN_FLIGHT });
  const statuses = new Map<number, StatusRead>();
  for (const attempt of attempts) {
    const chain = chains.get(attempt.chain);
    if (chain === undefined || handedToService(attempt, chain, ctx)) continue;
    statuses.set(
      attempt.id,
      reads.add(() => readStatus(attempt, chain, ctx)),
    );
  }
  return statuses;
}

/** Settled at once, so a failed read is never an unhandled rejection while earlier attempts are acted on. */
function readStatus(attempt: AttemptRow, chain: SolverChain, ctx: ExecutionContext): StatusRead {
  const actions = attempt.actionIds.map((id) => ctx.journal.action(id).request);
  return chain.executor.txStatus(attempt, actions).then(
    (status) => ({ status }),
    (error: unknown) => ({ error }),
  );
}

function handedToService(attempt: AttemptRow, chain: SolverChain, ctx: ExecutionContext): boolean {
  return isInstantRefund(attempt, ctx) && handsInstantRefundToService(chain.executor);
}

/**
 * An attempt that ended without being mined may leave its nonce unused below later ones, which then
 * wait forever: each hole gets a transaction moving nothing, journaled like a cancel before it is sent.
 */
async function fillNonceGaps(chain: SolverChain, ctx: ExecutionContext): Promise<void> {
  const { journal, logger } = ctx;
  if (chain.executor.fillNonceGaps === undefined) return;
  try {
    for (const filler of await chain.executor.fillNonceGaps()) {
      const attempt = journal.recordCancel([], filler);
      await chain.executor.broadcast(filler);
      journal.markBroadcast(attempt.id);
      logger.warn(
        { chain: chain.config.name, nonce: filler.nonce?.toString(), txHash: filler.txHash },
        "filled a nonce gap",
      );
    }
  } catch (error) {
    // A filler journaled but not sent is sent again by the next round's follow.
    logger.warn({ err: error, chain: chain.config.name }, "could not fill nonce gaps");
  }
}

function isInstantRefund(attempt: AttemptRow, ctx: ExecutionContext): boolean {
  const first = attempt.actionIds[0];
  return first !== undefined && ctx.journal.action(first).kind === "instant_refund";
}

/** Instant refund signatures never go to a node: the service completes them. Hand them over again. */
async function redeliver(attempt: AttemptRow, ctx: ExecutionContext, log: Logger): Promise<void> {
  const action = ctx.journal.action(attempt.actionIds[0] as number);
  await ctx.orderbook.instantRefund(action.orderId, attempt.raw);
  ctx.journal.markDelivered(attempt.id);
  log.info({ orderId: action.orderId }, "instant refund signatures handed to the service");
}

async function followOne(
  attempt: AttemptRow,
  chain: SolverChain,
  ctx: ExecutionContext,
  log: Logger,
  nowMs: number,
  read: StatusRead,
): Promise<void> {
  const { journal, observer } = ctx;
  if (journal.attempt(attempt.id).state === "dropped") return;
  const outcome = await read;
  if ("error" in outcome) throw outcome.error;
  const { status } = outcome;
  // Before the state change: a crash between the two records the fee again next round, never loses it.
  if ("feePaid" in status && status.feePaid !== undefined) recordFeePaid(journal, attempt.id, status.feePaid);
  if (status.state !== "confirmed" && attempt.blockHeight !== null) {
    // Seen mined before, gone from its block now: a reorganisation. Send it again or plan anew, below.
    journal.markUnmined(attempt.id);
    observer.attempt(chain.config.name, "reorganised");
    log.warn({ wasAt: attempt.blockHeight.toString() }, "transaction reorganised out of its block");
  }
  switch (status.state) {
    case "confirmed": {
      if (status.confirmations < chain.config.finalityDepth) {
        if (attempt.blockHeight !== status.blockHeight) {
          journal.markMined(attempt.id, status.blockHeight);
          observer.attempt(chain.config.name, "mined");
          log.info(
            { blockHeight: status.blockHeight.toString(), finalityDepth: chain.config.finalityDepth },
            "transaction mined; followed until final",
          );
        }
        return;
      }
      // Which calls of a batch failed is judged on the final block, as is the attempt.
      const failed = failedInBatch(attempt, status.failedActions);
      journal.markConfirmed(attempt.id, status.blockHeight, Date.now(), failed);
      observer.attempt(chain.config.name, "confirmed");
      for (const id of attempt.actionIds) {
        const action = journal.action(id);
        const reason = failed.get(id);
        if (reason === undefined) {
          observer.action(chain.config.name, action.kind, "confirmed", (nowMs - action.createdMs) / 1000);
          continue;
        }
        observer.action(chain.config.name, action.kind, "failed");
        log.warn(
          { orderId: action.orderId, kind: action.kind, reason },
          "its call failed inside the mined batch; the action is planned again",
        );
      }
      log.info({ blockHeight: status.blockHeight.toString() }, "transaction confirmed");
      return;
    }
    case "failed":
      journal.markAttemptFailed(attempt.id, "failed", status.reason);
      observer.attempt(chain.config.name, "failed");
      log.error({ reason: status.reason }, "transaction failed on chain");
      return;
    case "dead":
      journal.markAttemptFailed(attempt.id, "dropped", status.reason);
      observer.attempt(chain.config.name, "dropped");
      log.warn({ reason: status.reason }, "transaction can never be mined; its actions are planned again");
      return;
    case "unknown":
      if (await cancelledInstead(attempt, chain, ctx, log)) return;
      return rebroadcast(attempt, chain, ctx, log, nowMs);
    case "pending":
      if (attempt.state !== "replaced" && bumpDue(attempt, ctx, chain.config.bumpAfterMs, nowMs)) {
        if (await cancelledInstead(attempt, chain, ctx, log)) return;
        await bump(attempt, chain, ctx, log);
      }
      return;
  }
}

/** Action id → reason of the actions whose own call failed inside a mined batch (positions as given to txStatus). */
function failedInBatch(
  attempt: AttemptRow,
  failures: readonly FailedAction[] | undefined,
): Map<number, string> {
  const failed = new Map<number, string>();
  for (const { index, reason } of failures ?? []) {
    const id = attempt.actionIds[index];
    if (id !== undefined) failed.set(id, reason);
  }
  return failed;
}
