import { crypto, type Transaction } from "bitcoinjs-lib";

/** An unspent output as the chain state keeps it. */
export interface Coin {
  value: bigint;
  script: Uint8Array;
  /** Height of the block that created it; for mempool outputs, the next block's height. */
  height: number;
  coinbase: boolean;
}

export interface CoinView {
  getCoin(txid: string, vout: number): Coin | undefined;
}

export function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

/** Display txid (big-endian hex) of the output an input spends. */
export function prevTxid(input: Transaction["ins"][number]): string {
  return Buffer.from(input.hash).reverse().toString("hex");
}

/**
 * Witness txid (display order). bitcoinjs reports zeros for a coinbase's witness hash, which is right
 * inside the witness merkle tree but not what bitcoind shows as a coinbase's `hash`.
 */
export function wtxidOf(tx: Transaction): string {
  return Buffer.from(crypto.hash256(tx.toBuffer())).reverse().toString("hex");
}

export function isNullPrevout(input: Transaction["ins"][number]): boolean {
  return input.index === 0xffffffff && input.hash.every((b) => b === 0);
}

export function isCoinbaseTx(tx: Transaction): boolean {
  const first = tx.ins[0];
  return tx.ins.length === 1 && first !== undefined && isNullPrevout(first);
}

/** The UTXO set of the active chain. */
export class UtxoSet implements CoinView {
  readonly #coins = new Map<string, Coin>();

  getCoin(txid: string, vout: number): Coin | undefined {
    return this.#coins.get(outpointKey(txid, vout));
  }

  add(txid: string, vout: number, coin: Coin): void {
    this.#coins.set(outpointKey(txid, vout), coin);
  }

  /** Removes and returns the coin (the undo data of the spend). */
  spend(txid: string, vout: number): Coin | undefined {
    const key = outpointKey(txid, vout);
    const coin = this.#coins.get(key);
    this.#coins.delete(key);
    return coin;
  }

  *entries(): IterableIterator<[txid: string, vout: number, coin: Coin]> {
    for (const [key, coin] of this.#coins) {
      const at = key.lastIndexOf(":");
      yield [key.slice(0, at), Number(key.slice(at + 1)), coin];
    }
  }

  get size(): number {
    return this.#coins.size;
  }
}
