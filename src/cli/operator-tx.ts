/**
 * How an operator's command sends one transaction, the way the runner sends its actions: under the
 * journal's lease, signed, checked once more, journaled, and only then broadcast, then followed until it
 * is mined. A crash after the journal and before the send leaves the signed bytes there; the solver
 * sends those same bytes when it runs (src/solver/attempt-follower.ts), and the next operator command on
 * that chain refuses until they are settled, so nothing is ever built and sent twice.
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { SignedOperatorTx } from "../chains/chain.js";
import type { PreparedChain } from "../chains/family-module.js";
import type { Journal } from "../journal/journal.js";
import { newLeaseHolder } from "../journal/lease.js";
import { bigintSafe, type Logger } from "../util/logger.js";

export interface SentOperatorTx {
  chain: string;
  txHash: string;
  attemptId: number;
  /** Block it was mined in; null when it was still pending when the wait ended. */
  blockHeight: bigint | null;
  /** What it paid, smallest units of the chain's coin, where the chain tells. */
  feePaid: bigint | null;
  state: "confirmed" | "mined" | "pending";
}

/** Thrown when the check right before the journal refuses what was built: nothing is journaled or sent. */
export class OperatorRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorRefusal";
  }
}

/**
 * Runs `work` holding the journal's lease, so that no solver moves money from the same accounts meanwhile
 * (a running solver holds it: LeaseHeldError names it, and the operator stops it first).
 */
export async function withOperatorLease<T>(
  journal: Journal,
  ttlMs: number,
  work: () => Promise<T>,
): Promise<T> {
  journal.acquireLease(newLeaseHolder(hostname(), process.pid), ttlMs);
  const renew = setInterval(() => journal.renewLease(), Math.max(250, Math.floor(ttlMs / 4)));
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    journal.releaseLease();
  }
}

/**
 * An operator transaction on the chain journaled and not yet mined: the next one waits for it. Until it
 * is mined, what it spends is not in every family's balance of every asset.
 */
export function liveOperatorTx(journal: Journal, chain: string): string | null {
  const live = journal
    .liveAttemptRows()
    .find((a) => a.chain === chain && a.purpose === "operator" && a.blockHeight === null);
  return live === undefined ? null : live.txHash;
}

const POLL_MS = 500;

/**
 * Builds, checks (`recheck` with the built transaction's fee ceiling, right before the journal), journals,
 * broadcasts and waits up to `waitMs` for the transaction to be mined.
 */
export async function sendOperatorTx(options: {
  journal: Journal;
  chain: PreparedChain;
  logger: Logger;
  what: Record<string, unknown>;
  build: () => Promise<SignedOperatorTx>;
  recheck: (maxFee: bigint) => Promise<void>;
  waitMs: number;
}): Promise<SentOperatorTx> {
  const { journal, chain, logger } = options;
  const name = chain.config.name;
  const pending = liveOperatorTx(journal, name);
  if (pending !== null)
    throw new OperatorRefusal(
      `an earlier operator transaction on ${name} (${pending}) is not mined yet; wait until solver journal shows it mined (a running solver sends it again if needed)`,
    );
  const { signed, maxFee } = await options.build();
  await options.recheck(maxFee);
  const attempt = journal.recordOperator(signed);
  // Child bindings skip the logger's bigint formatter: amounts go in as decimal strings.
  const bindings = bigintSafe({ chain: name, txHash: signed.txHash, ...options.what }) as Record<
    string,
    unknown
  >;
  const log = logger.child(bindings);
  log.info({ maxFee }, "operator transaction signed and journaled");
  await chain.executor.broadcast(signed);
  journal.markBroadcast(attempt.id);
  log.info("operator transaction broadcast");
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const status = await chain.executor.txStatus(journal.attempt(attempt.id), []);
    if (status.state === "confirmed") {
      const feePaid = status.feePaid ?? null;
      const final = status.confirmations >= chain.config.finalityDepth;
      if (final) journal.markConfirmed(attempt.id, status.blockHeight);
      else journal.markMined(attempt.id, status.blockHeight);
      log.info({ blockHeight: status.blockHeight, final }, "operator transaction mined");
      return {
        chain: name,
        txHash: signed.txHash,
        attemptId: attempt.id,
        blockHeight: status.blockHeight,
        feePaid,
        state: final ? "confirmed" : "mined",
      };
    }
    if (status.state === "failed" || status.state === "dead") {
      journal.markAttemptFailed(attempt.id, status.state === "failed" ? "failed" : "dropped", status.reason);
      const how = status.state === "failed" ? "failed on chain" : "can never be mined";
      throw new Error(`operator transaction ${signed.txHash} ${how} on ${name}: ${status.reason}`);
    }
    if (Date.now() > deadline)
      return {
        chain: name,
        txHash: signed.txHash,
        attemptId: attempt.id,
        blockHeight: null,
        feePaid: null,
        state: "pending",
      };
    await sleep(POLL_MS);
  }
}
