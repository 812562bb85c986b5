/**
 * Transactions accepted but not yet in a block, per sender in nonce order. A sender's next usable nonce
 * follows its waiting transactions; the same sender and nonce replaces a waiting transaction only with a
 * tip and an l2 max price each at least 10% higher (fee escalation).
 */
import { specError, STARKNET_RPC_CODE } from "./errors.js";
import type { InvokeV3 } from "./invoke-txn.js";

export interface WaitingTransaction {
  hash: bigint;
  tx: InvokeV3;
}

/** Whether `next` pays at least 10% more tip and l2 max price than `current`. */
export function escalates(current: InvokeV3, next: InvokeV3): boolean {
  const atLeastTenPercentMore = (before: bigint, after: bigint) => after * 10n >= before * 11n;
  return (
    atLeastTenPercentMore(current.tip, next.tip) &&
    atLeastTenPercentMore(
      current.resourceBounds.l2Gas.maxPricePerUnit,
      next.resourceBounds.l2Gas.maxPricePerUnit,
    )
  );
}

export class Mempool {
  private readonly bySender = new Map<bigint, WaitingTransaction[]>();

  waitingOf(sender: bigint): readonly WaitingTransaction[] {
    return this.bySender.get(sender) ?? [];
  }

  /** Senders in the order their oldest waiting transaction arrived. */
  senders(): bigint[] {
    return [...this.bySender.keys()];
  }

  /**
   * Checks the nonce against the account nonce and the sender's waiting transactions; returns the waiting
   * transaction this one would replace, if any.
   */
  admissionOf(tx: InvokeV3, accountNonce: bigint): WaitingTransaction | undefined {
    const waiting = this.waitingOf(tx.senderAddress);
    const next = accountNonce + BigInt(waiting.length);
    const same = waiting.find((w) => w.tx.nonce === tx.nonce);
    if (same !== undefined) {
      if (!escalates(same.tx, tx))
        throw specError(
          STARKNET_RPC_CODE.DUPLICATE_TX,
          `a transaction with nonce ${tx.nonce} is waiting; a replacement needs a tip and l2 max price each at least 10% higher`,
        );
      return same;
    }
    if (tx.nonce !== next)
      throw specError(
        STARKNET_RPC_CODE.INVALID_TRANSACTION_NONCE,
        `Invalid transaction nonce of contract at address 0x${tx.senderAddress.toString(16)}. Account nonce: ${accountNonce}; got: ${tx.nonce}; next usable: ${next}.`,
      );
    return undefined;
  }

  add(entry: WaitingTransaction, replacing: WaitingTransaction | undefined): void {
    const sender = entry.tx.senderAddress;
    const waiting = [...this.waitingOf(sender)];
    if (replacing !== undefined) waiting[waiting.indexOf(replacing)] = entry;
    else waiting.push(entry);
    this.bySender.set(sender, waiting);
  }

  /** The sender's first waiting transaction. */
  head(sender: bigint): WaitingTransaction | undefined {
    return this.bySender.get(sender)?.[0];
  }

  shift(sender: bigint): void {
    const waiting = this.bySender.get(sender) ?? [];
    waiting.shift();
    if (waiting.length === 0) this.bySender.delete(sender);
  }

  /** Drops every waiting transaction of a sender (its head can no longer be included). */
  dropAll(sender: bigint): WaitingTransaction[] {
    const dropped = this.bySender.get(sender) ?? [];
    this.bySender.delete(sender);
    return dropped;
  }
}
