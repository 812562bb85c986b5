import type { ActionKind, JournalView, SignedTx, TxAttemptRef } from "../../src/chains/chain.js";

/**
 * The journal's view as an executor sees it, kept in memory: attempts recorded here are live until
 * settled, and an attempt recorded for an order's action names that action's transactions.
 */
export class MemoryJournal implements JournalView {
  readonly attempts: TxAttemptRef[] = [];
  readonly #actions = new Map<string, string[]>();
  #nextId = 1;

  record(
    tx: Pick<SignedTx, "chain" | "txHash" | "raw" | "nonce" | "fee"> & Partial<Pick<SignedTx, "spends">>,
    action?: { orderId: string; kind: ActionKind },
  ): TxAttemptRef {
    const attempt = {
      id: this.#nextId++,
      chain: tx.chain,
      txHash: tx.txHash,
      raw: tx.raw,
      nonce: tx.nonce,
      fee: tx.fee,
      createdAtMs: Date.now(),
    };
    this.attempts.push(attempt);
    if (action !== undefined) {
      const key = `${action.orderId}/${action.kind}`;
      this.#actions.set(key, [...(this.#actions.get(key) ?? []), tx.txHash]);
    }
    return attempt;
  }

  /** The attempt is final: it no longer counts as live. */
  settle(txHash: string): void {
    const index = this.attempts.findIndex((a) => a.txHash === txHash);
    if (index >= 0) this.attempts.splice(index, 1);
  }

  liveAttempts(chain: string): TxAttemptRef[] {
    return this.attempts.filter((a) => a.chain === chain);
  }

  actionTxids(orderId: string, kind: ActionKind): string[] {
    return this.#actions.get(`${orderId}/${kind}`) ?? [];
  }
}
