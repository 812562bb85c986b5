/**
 * The Bitcoin backend over a bitcoind node (or the project's regtest node): address activity from the
 * block-following indexer, wallet outputs from `scantxoutset`, fees from `estimatesmartfee`.
 */
import { Transaction, type Network } from "bitcoinjs-lib";
import type { Logger } from "pino";
import {
  broadcastRejection,
  type AddressActivity,
  type BitcoinBackend,
  type ConfirmedUtxo,
  type MempoolDescendants,
  type TxSeen,
} from "./backend.js";
import type { HtlcReadOptions } from "../chain.js";
import { satPerKvbToSatVb } from "./fee.js";
import { BitcoinIndexer } from "./indexer.js";
import { BitcoinRpcError, isAlreadyKnownRejection, RpcErrorCode, type BitcoinRpcClient } from "./rpc.js";

export interface BitcoindBackendOptions {
  rpc: BitcoinRpcClient;
  network: Network;
  /** Shared with other users of the same node when given; otherwise one is created. */
  indexer?: BitcoinIndexer;
  lookbackBlocks?: number;
  logger?: Logger;
}

const COINBASE_MATURITY = 100;

export class BitcoindBackend implements BitcoinBackend {
  readonly kind = "bitcoind" as const;
  readonly rpc: BitcoinRpcClient;
  readonly indexer: BitcoinIndexer;

  constructor(options: BitcoindBackendOptions) {
    this.rpc = options.rpc;
    this.indexer =
      options.indexer ??
      new BitcoinIndexer({
        rpc: options.rpc,
        network: options.network,
        ...(options.lookbackBlocks === undefined ? {} : { lookbackBlocks: options.lookbackBlocks }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
  }

  tipHeight(): Promise<number> {
    return this.rpc.freshTip();
  }

  watch(addresses: readonly string[]): void {
    for (const address of addresses) this.indexer.watch(address);
  }

  /** The index's first sync walks the whole look-back (on mainnet, 1,008 full blocks). */
  warmUp(): Promise<void> {
    return this.rpc.sticky("index warm-up", () => this.indexer.sync());
  }

  async addressActivity(address: string, options: HtlcReadOptions = {}): Promise<AddressActivity> {
    // An address the index already follows is as fresh as its last sync; a new one must be searched for.
    if (this.indexer.isFollowed(address) && this.#viewWillDo(options)) return this.indexer.activity(address);
    this.indexer.watch(address);
    // A tip and the blocks below it must come from one node, or a lagging one could roll the index back.
    await this.rpc.sticky("address activity", () => this.indexer.sync());
    return this.indexer.activity(address);
  }

  #viewWillDo({ latestView, viewAfter }: HtlcReadOptions): boolean {
    if (latestView === true) return true;
    const began = this.indexer.viewBegan;
    return viewAfter !== undefined && began !== null && began > viewAfter;
  }

  async changedAddresses(from: number, to: number): Promise<string[] | null> {
    await this.rpc.sticky("changed addresses", () => this.indexer.sync());
    return this.indexer.touchedBetween(from, to);
  }

  async confirmedUnspent(address: string): Promise<ConfirmedUtxo[]> {
    const scan = await this.rpc.scanTxOutSet([address]);
    // An immature coinbase output is in the UTXO set but cannot be spent in the next block yet.
    const mature = scan.unspents.filter(
      (u) => !u.coinbase || scan.height - u.height + 1 >= COINBASE_MATURITY,
    );
    return mature.map((u) => ({ txid: u.txid, vout: u.vout, value: u.amountSats, height: u.height }));
  }

  async broadcast(rawHex: string): Promise<string> {
    const txid = Transaction.fromHex(rawHex).getId();
    try {
      return await this.rpc.sendRawTransaction(rawHex);
    } catch (error) {
      if (!(error instanceof BitcoinRpcError)) throw error;
      if (isAlreadyKnownRejection(error)) return txid;
      throw broadcastRejection(txid, error.rpcMessage);
    }
  }

  async feeRateSatVb(targetBlocks: number): Promise<bigint | null> {
    const estimate = await this.rpc.estimateSmartFee(targetBlocks);
    return estimate.feeRateSatKvB === null ? null : satPerKvbToSatVb(estimate.feeRateSatKvB);
  }

  async mempoolDescendants(txid: string): Promise<MempoolDescendants | null> {
    try {
      const entry = await this.rpc.getMempoolEntry(txid);
      // bitcoind counts the transaction itself among its descendants.
      return {
        count: entry.descendantcount - 1,
        vsize: entry.descendantsize - entry.vsize,
        feeSats: entry.fees.descendantSats - entry.fees.modifiedSats,
      };
    } catch (error) {
      if (error instanceof BitcoinRpcError && error.code === RpcErrorCode.INVALID_ADDRESS_OR_KEY) return null;
      throw error;
    }
  }

  /** The transaction and the block header it points to are read from one node, so they agree. */
  transactionStatus(txid: string, rawHex?: string): Promise<TxSeen> {
    return this.rpc.sticky("transaction status", () => this.#transactionStatus(txid, rawHex));
  }

  async #transactionStatus(txid: string, rawHex?: string): Promise<TxSeen> {
    try {
      const tx = await this.rpc.getRawTransactionVerbose(txid);
      if (tx.blockhash === undefined) return { state: "mempool" };
      const header = await this.rpc.getBlockHeader(tx.blockhash);
      return header.confirmations < 0 ? { state: "unknown" } : { state: "confirmed", height: header.height };
    } catch (error) {
      if (!(error instanceof BitcoinRpcError) || error.code !== RpcErrorCode.INVALID_ADDRESS_OR_KEY)
        throw error;
    }
    return rawHex === undefined ? { state: "unknown" } : this.#statusFromOutputs(txid, rawHex);
  }

  /**
   * Without -txindex a confirmed transaction is found through its unspent outputs. If every output is
   * already spent the answer is "unknown", which only delays the journal's view of a settled attempt.
   */
  async #statusFromOutputs(txid: string, rawHex: string): Promise<TxSeen> {
    const outputs = Transaction.fromHex(rawHex).outs.length;
    for (let vout = 0; vout < outputs; vout++) {
      const out = await this.rpc.getTxOut(txid, vout, true);
      if (out === null) continue;
      if (out.confirmations === 0) return { state: "mempool" };
      const header = await this.rpc.getBlockHeader(out.bestblock);
      return { state: "confirmed", height: header.height - out.confirmations + 1 };
    }
    return { state: "unknown" };
  }
}
