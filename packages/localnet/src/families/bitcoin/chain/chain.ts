import type { Block, Transaction } from "bitcoinjs-lib";
import { isCoinbaseTx, prevTxid, UtxoSet, type Coin } from "./coins.js";

/** A block the node knows, on the active chain or not. */
export interface BlockEntry {
  hash: string;
  height: number;
  prevHash: string | null;
  block: Block;
  txs: Transaction[];
  txids: string[];
  /** Fee of each transaction (0 for the coinbase). */
  fees: bigint[];
  /** Coins each transaction spent, for disconnecting (empty for the coinbase). */
  undo: Coin[][];
  time: number;
  medianTimePast: number;
  /** Marked by invalidateblock (itself or an ancestor). */
  invalid: boolean;
}

export interface TxLocation {
  entry: BlockEntry;
  index: number;
}

const MEDIAN_TIME_SPAN = 11;

/** Outputs that can never be spent are not kept in the UTXO set, as in Bitcoin Core. */
function isUnspendable(script: Uint8Array): boolean {
  return script[0] === 0x6a || script.length > 10_000;
}

/** The active chain, every block seen, the UTXO set and a transaction index. */
export class ChainState {
  readonly active: BlockEntry[] = [];
  readonly byHash = new Map<string, BlockEntry>();
  readonly utxos = new UtxoSet();
  readonly #txIndex = new Map<string, TxLocation>();

  constructor(genesis: BlockEntry) {
    // The genesis coinbase is not spendable: it never enters the UTXO set.
    this.byHash.set(genesis.hash, genesis);
    this.active.push(genesis);
    genesis.txids.forEach((txid, index) => this.#txIndex.set(txid, { entry: genesis, index }));
  }

  get tip(): BlockEntry {
    const tip = this.active[this.active.length - 1];
    if (tip === undefined) throw new Error("the chain has no blocks");
    return tip;
  }

  get height(): number {
    return this.active.length - 1;
  }

  atHeight(height: number): BlockEntry | undefined {
    return this.active[height];
  }

  isActive(entry: BlockEntry): boolean {
    return this.active[entry.height] === entry;
  }

  /** bitcoind's confirmations of a block: depth on the active chain, -1 off it. */
  confirmations(entry: BlockEntry): number {
    return this.isActive(entry) ? this.height - entry.height + 1 : -1;
  }

  medianTimeAt(height: number): number {
    return this.active[Math.min(Math.max(height, 0), this.height)]?.medianTimePast ?? 0;
  }

  /** Median of the last 11 block times of a chain ending with `time` on top of `prev`. */
  medianTimeFor(prev: BlockEntry | null, time: number): number {
    const times = [time];
    for (let e = prev; e !== null && times.length < MEDIAN_TIME_SPAN;) {
      times.push(e.time);
      e = e.prevHash === null ? null : (this.byHash.get(e.prevHash) ?? null);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] ?? time;
  }

  findTx(txid: string): TxLocation | undefined {
    return this.#txIndex.get(txid);
  }

  /** Applies a validated block on top of the tip; `spent` holds the coins each transaction spends. */
  connect(entry: BlockEntry): void {
    if (entry.prevHash !== this.tip.hash) throw new Error(`block ${entry.hash} does not extend the tip`);
    // Transaction by transaction: a block may spend outputs created earlier in the same block.
    entry.undo = entry.txs.map((tx, index) => {
      const undo = isCoinbaseTx(tx)
        ? []
        : tx.ins.map((input) => {
            const coin = this.utxos.spend(prevTxid(input), input.index);
            if (coin === undefined) throw new Error(`block ${entry.hash} spends a missing coin`);
            return coin;
          });
      const txid = entry.txids[index] ?? tx.getId();
      tx.outs.forEach((out, vout) => {
        if (isUnspendable(out.script)) return;
        const coinbase = index === 0;
        this.utxos.add(txid, vout, { value: out.value, script: out.script, height: entry.height, coinbase });
      });
      this.#txIndex.set(txid, { entry, index });
      return undo;
    });
    this.byHash.set(entry.hash, entry);
    this.active.push(entry);
  }

  /** Takes the tip block off the active chain and restores the coins it spent. */
  disconnectTip(): BlockEntry {
    const entry = this.tip;
    if (entry.prevHash === null) throw new Error("the genesis block cannot be disconnected");
    for (let index = entry.txs.length - 1; index >= 0; index--) {
      const tx = entry.txs[index];
      const txid = entry.txids[index];
      if (tx === undefined || txid === undefined) continue;
      tx.outs.forEach((_, vout) => this.utxos.spend(txid, vout));
      const undo = entry.undo[index] ?? [];
      tx.ins.forEach((input, i) => {
        const coin = undo[i];
        if (coin !== undefined) this.utxos.add(prevTxid(input), input.index, coin);
      });
      if (this.#txIndex.get(txid)?.entry === entry) this.#txIndex.delete(txid);
    }
    this.active.pop();
    return entry;
  }
}
