/**
 * Dry run as a property of a chain: every money movement of the solver passes through its chains'
 * executors (build, bump, cancel, nonce fillers, broadcast) or their start-up work (`prepare`: EVM
 * approvals and delegation). A dry-run chain reads as the real one does (reader, balances, transaction
 * status) and, where the real one would sign or send, logs one line saying what it would do and does not:
 * `build` refuses with DryRunError, so no attempt is journaled and the action is not sent; a broadcast
 * of a transaction already journaled is not made, so it is not marked sent either.
 */
import type { Logger } from "pino";
import type { ActionRequest, ChainExecutor, FeeAllowance, SignedTx, TxAttemptRef } from "./chain.js";
import type { PreparedChain } from "./family-module.js";
import { CannotAnswerNowError } from "./seam-errors.js";

/** Where a dry run stops short of signing. Nothing was decided on chain: the action is planned again. */
export class DryRunError extends CannotAnswerNowError {
  constructor(what: string) {
    super(`dry run: ${what} not signed or sent`);
    this.name = "DryRunError";
  }
}

/** What an action moves, for the log: no secret (a redeem shows that it has one, not which). */
function describeAction(action: ActionRequest) {
  const { params } = action;
  return {
    kind: action.kind,
    orderId: action.orderId,
    chain: params.chain,
    asset: params.asset,
    amount: params.amount,
    swapId: params.swapId,
    redeemer: params.redeemer,
    initiator: params.initiator,
    ...(action.locks === undefined ? {} : { locks: action.locks }),
    ...(action.refundAddress === undefined ? {} : { refundAddress: action.refundAddress }),
  };
}

function dryRunExecutor(inner: ChainExecutor, log: Logger): ChainExecutor {
  const executor: ChainExecutor = {
    chain: inner.chain,
    get feeAsset() {
      return inner.feeAsset;
    },
    get maxBatch() {
      return inner.maxBatch;
    },
    offersInstantRefund: inner.offersInstantRefund,
    ...(inner.instantRefundDelivery === undefined
      ? {}
      : { instantRefundDelivery: inner.instantRefundDelivery }),
    build: (actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx> => {
      for (const action of actions)
        log.info(
          {
            ...describeAction(action),
            ...(allowance === undefined ? {} : { feeAllowance: allowance.maxFee }),
          },
          `dry run: would sign and send a ${action.kind}`,
        );
      return Promise.reject(new DryRunError(`${actions.map((a) => a.kind).join(", ")} of ${inner.chain}`));
    },
    broadcast: (tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> => {
      log.info({ txHash: tx.txHash }, "dry run: would send the journaled transaction again");
      return Promise.reject(new DryRunError(`broadcast of ${tx.txHash}`));
    },
    txStatus: (attempt, actions) => inner.txStatus(attempt, actions),
    networkFees: () => inner.networkFees(),
    bump: (attempt: TxAttemptRef, actions: ActionRequest[]): Promise<SignedTx | null> => {
      log.info(
        { txHash: attempt.txHash, actions: actions.map(describeAction) },
        "dry run: would replace the pending transaction with a better-paying one",
      );
      return Promise.resolve(null);
    },
    cancel: (attempt: TxAttemptRef): Promise<SignedTx | null> => {
      log.info({ txHash: attempt.txHash }, "dry run: would cancel the pending transaction");
      return Promise.resolve(null);
    },
    balance: (asset) => inner.balance(asset),
  };
  const { maxBatchFor, fillNonceGaps } = inner;
  if (maxBatchFor !== undefined) executor.maxBatchFor = (kind) => maxBatchFor.call(inner, kind);
  if (fillNonceGaps !== undefined)
    executor.fillNonceGaps = () => {
      log.debug("dry run: nonce gaps are not filled");
      return Promise.resolve([]);
    };
  return executor;
}

/** The chain with dry run as its property: reads go to the chain, signatures and sends nowhere. */
export function dryRunChain(chain: PreparedChain, logger: Logger): PreparedChain {
  const log = logger.child({ chain: chain.config.name, dryRun: true });
  return {
    config: chain.config,
    reader: chain.reader,
    party: chain.party,
    executor: dryRunExecutor(chain.executor, log),
    prepare: () => {
      log.info("dry run: would do the chain's start-up transactions (token approvals, delegation) where due");
      return Promise.resolve();
    },
  };
}
