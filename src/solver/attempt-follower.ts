import type { Logger } from "pino";
import type { Journal, AttemptRow } from "../journal/journal.js";
import type { RunnerObserver } from "./observer.js";
import type { ChainRegistry, SolverChain } from "./solver-chain.js";

/**
 * Follows every journaled transaction that is not final: marks it confirmed or failed, re-broadcasts the
 * journaled bytes when the node forgot it, and replaces it with a better-paying one when it is stuck.
 */
export async function followAttempts(
  chains: ChainRegistry,
  journal: Journal,
  observer: RunnerObserver,
  logger: Logger,
  nowMs = Date.now(),
): Promise<void> {
  for (const attempt of journal.liveAttemptRows()) {
    const chain = chains.get(attempt.chain);
    if (!chain) {
      logger.error(
        { chain: attempt.chain, txHash: attempt.txHash },
        "journaled transaction on an unconfigured chain",
      );
      continue;
    }
    try {
      await followOne(
        attempt,
        chain,
        journal,
        observer,
        logger.child({ chain: attempt.chain, txHash: attempt.txHash }),
        nowMs,
      );
    } catch (error) {
      logger.warn(
        { err: error, chain: attempt.chain, txHash: attempt.txHash },
        "could not follow transaction",
      );
    }
  }
}

async function followOne(
  attempt: AttemptRow,
  chain: SolverChain,
  journal: Journal,
  observer: RunnerObserver,
  log: Logger,
  nowMs: number,
): Promise<void> {
  if (journal.attempt(attempt.id).state === "dropped") return;
  const status = await chain.executor.txStatus(attempt);
  switch (status.state) {
    case "confirmed":
      journal.markConfirmed(attempt.id, status.blockHeight);
      observer.attempt(chain.config.name, "confirmed");
      for (const id of attempt.actionIds)
        observer.action(chain.config.name, journal.action(id).kind, "confirmed");
      log.info({ blockHeight: status.blockHeight.toString() }, "transaction confirmed");
      return;
    case "failed":
      journal.markAttemptFailed(attempt.id, "failed", status.reason);
      observer.attempt(chain.config.name, "failed");
      log.error({ reason: status.reason }, "transaction failed on chain");
      return;
    case "unknown":
      return rebroadcast(attempt, chain, journal, observer, log);
    case "pending":
      if (attempt.state !== "replaced" && nowMs - attempt.createdAtMs > chain.config.bumpAfterMs) {
        await bump(attempt, chain, journal, observer, log);
      }
      return;
  }
}

async function rebroadcast(
  attempt: AttemptRow,
  chain: SolverChain,
  journal: Journal,
  observer: RunnerObserver,
  log: Logger,
): Promise<void> {
  if (attempt.state === "replaced") {
    // Its successor carries the actions; a replaced transaction the node forgot stays forgotten.
    journal.markAttemptFailed(attempt.id, "dropped", "replaced and no longer known to the node");
    return;
  }
  await chain.executor.broadcast(attempt);
  if (attempt.state === "signed") journal.markBroadcast(attempt.id);
  observer.attempt(chain.config.name, "rebroadcast");
  log.info("re-broadcast the journaled transaction");
}

async function bump(
  attempt: AttemptRow,
  chain: SolverChain,
  journal: Journal,
  observer: RunnerObserver,
  log: Logger,
): Promise<void> {
  const requests = attempt.actionIds.map((id) => journal.action(id).request);
  const replacement = await chain.executor.bump(attempt, requests);
  if (replacement === null) {
    log.warn("transaction pending and cannot be re-priced further");
    return;
  }
  const next = journal.recordSigned(attempt.actionIds, replacement);
  journal.markReplaced(attempt.id);
  await chain.executor.broadcast(replacement);
  journal.markBroadcast(next.id);
  observer.attempt(chain.config.name, "bumped");
  log.info(
    { replacement: replacement.txHash, fee: replacement.fee },
    "replaced a stuck transaction with a better-paying one",
  );
}
