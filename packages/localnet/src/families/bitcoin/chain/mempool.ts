import type { Transaction } from "bitcoinjs-lib";
import { outpointKey, prevTxid, type Coin, type CoinView } from "./coins.js";

export interface MempoolEntry {
  tx: Transaction;
  txid: string;
  wtxid: string;
  fee: bigint;
  vsize: number;
  weight: number;
  /** Unix seconds of entry. */
  time: number;
  /** Chain height when it entered. */
  height: number;
  /** Entry order: parents always come before their children. */
  sequence: number;
}

/** Transactions waiting for a block, with the spend graph between them. */
export class Mempool implements CoinView {
  readonly #entries = new Map<string, MempoolEntry>();
  /** outpoint -> txid of the mempool transaction spending it. */
  readonly #spentBy = new Map<string, string>();
  #nextSequence = 1;

  /** Outputs of mempool transactions, as coins of the next block. */
  nextHeight = 1;

  get size(): number {
    return this.#entries.size;
  }

  get(txid: string): MempoolEntry | undefined {
    return this.#entries.get(txid);
  }

  has(txid: string): boolean {
    return this.#entries.has(txid);
  }

  /** Entries in entry order (parents first). */
  entries(): MempoolEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.sequence - b.sequence);
  }

  getCoin(txid: string, vout: number): Coin | undefined {
    const out = this.#entries.get(txid)?.tx.outs[vout];
    if (out === undefined) return undefined;
    return { value: out.value, script: out.script, height: this.nextHeight, coinbase: false };
  }

  spenderOf(txid: string, vout: number): string | undefined {
    return this.#spentBy.get(outpointKey(txid, vout));
  }

  add(entry: Omit<MempoolEntry, "sequence">): MempoolEntry {
    const full = { ...entry, sequence: this.#nextSequence++ };
    this.#entries.set(full.txid, full);
    for (const input of full.tx.ins) this.#spentBy.set(outpointKey(prevTxid(input), input.index), full.txid);
    return full;
  }

  /** Mempool transactions whose outputs `tx` spends. */
  parents(tx: Transaction): string[] {
    return [...new Set(tx.ins.map(prevTxid).filter((txid) => this.#entries.has(txid)))];
  }

  children(txid: string): string[] {
    const entry = this.#entries.get(txid);
    if (entry === undefined) return [];
    const spenders = entry.tx.outs.map((_, vout) => this.#spentBy.get(outpointKey(txid, vout)));
    return [...new Set(spenders.filter((s): s is string => s !== undefined))];
  }

  ancestors(tx: Transaction): Set<string> {
    return this.#closure(this.parents(tx), (txid) => {
      const entry = this.#entries.get(txid);
      return entry === undefined ? [] : this.parents(entry.tx);
    });
  }

  /** The transaction itself and everything that spends from it, transitively. */
  withDescendants(txid: string): Set<string> {
    const found = this.#closure([txid], (t) => this.children(t));
    return found;
  }

  #closure(start: string[], next: (txid: string) => string[]): Set<string> {
    const found = new Set<string>();
    const queue = [...start];
    for (let txid = queue.pop(); txid !== undefined; txid = queue.pop()) {
      if (found.has(txid)) continue;
      found.add(txid);
      queue.push(...next(txid));
    }
    return found;
  }

  remove(txid: string): MempoolEntry | undefined {
    const entry = this.#entries.get(txid);
    if (entry === undefined) return undefined;
    this.#entries.delete(txid);
    for (const input of entry.tx.ins) {
      const key = outpointKey(prevTxid(input), input.index);
      if (this.#spentBy.get(key) === txid) this.#spentBy.delete(key);
    }
    return entry;
  }

  /** Removes a transaction and all its descendants; returns what was removed. */
  removeWithDescendants(txid: string): MempoolEntry[] {
    return [...this.withDescendants(txid)]
      .map((t) => this.remove(t))
      .filter((e): e is MempoolEntry => e !== undefined);
  }

  clear(): MempoolEntry[] {
    const all = this.entries();
    this.#entries.clear();
    this.#spentBy.clear();
    return all;
  }
}
