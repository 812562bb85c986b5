import type {
  ActionKind,
  ActionRequest,
  JournaledTx,
  JournalView,
  SignedTx,
  TxAttemptRef,
} from "../../src/chains/chain.js";
import type { TxTerms } from "../../src/chains/registry.js";

/**
 * The journal's view as an executor sees it, kept in memory: attempts recorded here are live until
 * settled, and an attempt recorded for an order's action names that action's transactions.
 */
export class MemoryJournal implements JournalView {
  readonly attempts: TxAttemptRef[] = [];
  readonly #actions = new Map<string, string[]>();
  /** Every attempt ever recorded, by chain and hash, as `journaledTx` answers. */
  readonly #journaled = new Map<string, JournaledTx>();
  #nextId = 1;

  /** `action`: the request it carries (or just its order and kind, where its parameters do not matter). */
  record(
    tx: Pick<SignedTx, "chain" | "txHash" | "raw" | "nonce" | "terms">,
    action?: { orderId: string; kind: ActionKind } | ActionRequest,
  ): TxAttemptRef {
    const attempt = {
      id: this.#nextId++,
      chain: tx.chain,
      txHash: tx.txHash,
      raw: tx.raw,
      nonce: tx.nonce,
      terms: tx.terms,
      createdAtMs: Date.now(),
    };
    this.attempts.push(attempt);
    const actions = action !== undefined && "params" in action ? [action] : [];
    this.#journaled.set(`${tx.chain}/${tx.txHash}`, { raw: tx.raw, state: "broadcast", actions });
    if (action !== undefined) {
      const key = `${action.orderId}/${action.kind}`;
      this.#actions.set(key, [...(this.#actions.get(key) ?? []), tx.txHash]);
    }
    return attempt;
  }

  /** The attempt is final: it no longer counts as live. */
  settle(txHash: string): void {
    this.#end(txHash, "confirmed");
  }

  /** The attempt can never be mined: it no longer counts as live. */
  drop(txHash: string): void {
    this.#end(txHash, "dropped");
  }

  #end(txHash: string, state: "confirmed" | "dropped"): void {
    const index = this.attempts.findIndex((a) => a.txHash === txHash);
    if (index < 0) return;
    const [attempt] = this.attempts.splice(index, 1);
    const key = `${attempt!.chain}/${txHash}`;
    const journaled = this.#journaled.get(key);
    if (journaled !== undefined) this.#journaled.set(key, { ...journaled, state });
  }

  journaledTx(chain: string, txHash: string): JournaledTx | null {
    return this.#journaled.get(`${chain}/${txHash}`) ?? null;
  }

  liveAttempts(chain: string): TxAttemptRef[] {
    return this.attempts.filter((a) => a.chain === chain);
  }

  actionTxids(orderId: string, kind: ActionKind): string[] {
    return this.#actions.get(`${orderId}/${kind}`) ?? [];
  }
}

/** The fee a Bitcoin attempt pays, from its journaled terms. */
export function bitcoinFeeOf(attempt: Pick<TxAttemptRef, "terms">): bigint {
  if (attempt.terms.family !== "bitcoin") throw new Error("not a Bitcoin attempt");
  return attempt.terms.feeSats;
}

/** Terms for a test transaction whose fee does not matter to the test. */
export function evmTerms(maxFeePerGas = 1n): TxTerms {
  return { family: "evm", maxFeePerGas, maxPriorityFeePerGas: 1n, gas: 21_000n };
}

export function bitcoinTerms(): TxTerms {
  return { family: "bitcoin", feeRateSatVb: 1n, feeSats: 0n, inputValues: [] };
}
