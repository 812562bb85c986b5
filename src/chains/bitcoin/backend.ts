/**
 * What the Bitcoin reader, wallet and executor need from a chain backend. Two implementations: a
 * bitcoind node (JSON-RPC, with the block-following indexer) and an Esplora REST server. Amounts are
 * bigint satoshis; heights are block numbers; txids are big-endian hex.
 */
import type { HtlcReadOptions } from "../chain.js";
import { RefusedForGoodError } from "../seam-errors.js";

/** A spend of a watched output, as the chain (or the mempool) shows it. */
export interface OutputSpend {
  txid: string;
  /** Input index inside the spending transaction. */
  vin: number;
  /** null while the spend is only in the mempool. */
  height: number | null;
  /** Witness stack items of that input, hex. */
  witness: string[];
}

/** An output paying a watched address, and its spend when there is one. */
export interface FundingOutput {
  txid: string;
  vout: number;
  value: bigint;
  /** null while the funding transaction is only in the mempool. */
  height: number | null;
  spentBy: OutputSpend | null;
}

export interface AddressActivity {
  address: string;
  /** The tip the answer is consistent with. */
  tipHeight: number;
  outputs: FundingOutput[];
}

/** A confirmed unspent output of the wallet. */
export interface ConfirmedUtxo {
  txid: string;
  vout: number;
  value: bigint;
  height: number;
}

export type TxSeen =
  | { state: "mempool" }
  | { state: "confirmed"; height: number }
  /** Neither in the mempool nor in the active chain (dropped, replaced, or never received). */
  | { state: "unknown" };

/**
 * What a mempool transaction's in-mempool descendants add up to, itself not counted: a replacement of
 * it evicts them all and must out-pay them too (BIP-125 rule 3).
 */
export interface MempoolDescendants {
  count: number;
  vsize: number;
  feeSats: bigint;
}

/** Reject reasons that no later broadcast of the same bytes can change: an input is gone. */
const INPUT_GONE = /missingorspent|txn-mempool-conflict|inputs-spent|missing-inputs/i;

/** The backend refused a transaction for now (its fee, say); `reason` is the node's reject reason. */
export class BroadcastRejectedError extends Error {
  constructor(
    readonly txid: string,
    readonly reason: string,
  ) {
    super(`Bitcoin transaction ${txid} was rejected: ${reason}`);
    this.name = "BroadcastRejectedError";
  }
}

/** The same bytes can never be accepted: an input is spent by another transaction or does not exist. */
export class InputsGoneError extends RefusedForGoodError {
  constructor(
    readonly txid: string,
    readonly reason: string,
  ) {
    super(`Bitcoin transaction ${txid} was rejected for good: ${reason}`);
    this.name = "InputsGoneError";
  }
}

/** The error a node's reject reason means: for good when an input is gone, for now otherwise. */
export function broadcastRejection(txid: string, reason: string): BroadcastRejectedError | InputsGoneError {
  return INPUT_GONE.test(reason)
    ? new InputsGoneError(txid, reason)
    : new BroadcastRejectedError(txid, reason);
}

export interface BitcoinBackend {
  readonly kind: "bitcoind" | "esplora";
  tipHeight(): Promise<number>;
  /**
   * Every output paying this address and its spend, up to date with the current tip and mempool; with
   * `latestView` (or a `viewAfter` its last sync began after), a backend that follows addresses may
   * answer from its last sync instead (HtlcReadOptions).
   */
  addressActivity(address: string, options?: HtlcReadOptions): Promise<AddressActivity>;
  /** Addresses whose activity will be asked soon; a backend that indexes by address starts following them. */
  watch?(addresses: readonly string[]): void;
  /**
   * Watched addresses paid or spent from in blocks `from`..`to`, up to date with the tip; null when the
   * backend cannot tell for that range (an Esplora server has no such request).
   */
  changedAddresses?(from: number, to: number): Promise<string[] | null>;
  /** Does ahead of time the work the first `addressActivity` would wait for (bitcoind: the index's first walk). */
  warmUp?(): Promise<void>;
  /** Confirmed unspent outputs paying this address. */
  confirmedUnspent(address: string): Promise<ConfirmedUtxo[]>;
  /** Sends a signed transaction; one the backend already has counts as sent. Returns its txid. */
  broadcast(rawHex: string): Promise<string>;
  /** Fee rate estimate for confirmation within `targetBlocks`, whole sat/vB rounded up; null when none. */
  feeRateSatVb(targetBlocks: number): Promise<bigint | null>;
  /** Where a transaction is; `rawHex` lets a node without -txindex answer through its outputs. */
  transactionStatus(txid: string, rawHex?: string): Promise<TxSeen>;
  /**
   * The in-mempool descendants of a mempool transaction, the solver's and anyone else's (a user's
   * redeem spending a fill's HTLC output); null when the transaction is not in the mempool.
   */
  mempoolDescendants(txid: string): Promise<MempoolDescendants | null>;
}
