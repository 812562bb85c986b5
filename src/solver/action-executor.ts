import type { Logger } from "pino";
import type { ActionRequest } from "../chains/chain.js";
import type { Journal } from "../journal/journal.js";
import type { RunnerObserver } from "./observer.js";
import type { SolverChain } from "./solver-chain.js";

/**
 * Carries out one planned action: claim its journal slot, check the chain once more for a fill, build and
 * sign, journal the signed transaction, and only then broadcast it.
 */
export async function executeAction(
  request: ActionRequest,
  chain: SolverChain,
  journal: Journal,
  observer: RunnerObserver,
  logger: Logger,
): Promise<void> {
  const log = logger.child({ orderId: request.orderId, kind: request.kind, chain: chain.config.name });
  const { action } = journal.claimAction(request);
  if (action.status !== "planned" && action.status !== "failed") {
    log.debug({ status: action.status }, "action already under way");
    return;
  }
  if (action.status === "failed") journal.retryAction(action.id, request);

  if (request.kind === "fill") {
    // Never fill twice: the chain may show a fill the journal lost (or one made by another instance).
    const state = await chain.reader.readHtlc(request.params);
    if (state.initiated) {
      journal.markActionSatisfied(action.id, "destination HTLC already initiated on chain");
      observer.action(chain.config.name, request.kind, "satisfied");
      log.warn("destination already initiated on chain; not filling again");
      return;
    }
  }

  let signed;
  try {
    signed = await chain.executor.build([request]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    journal.failAction(action.id, message);
    observer.action(chain.config.name, request.kind, "failed");
    log.error({ err: error }, "could not build transaction");
    return;
  }
  const attempt = journal.recordSigned([action.id], signed);
  log.info({ txHash: signed.txHash, nonce: signed.nonce?.toString() }, "transaction signed and journaled");
  try {
    await chain.executor.broadcast(signed);
    journal.markBroadcast(attempt.id);
    observer.action(chain.config.name, request.kind, "sent");
    log.info({ txHash: signed.txHash }, "transaction broadcast");
  } catch (error) {
    // The signed transaction stays journaled; the attempt follower re-broadcasts it next round.
    log.error(
      { err: error, txHash: signed.txHash },
      "broadcast failed; will re-broadcast the journaled transaction",
    );
  }
}
