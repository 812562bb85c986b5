/**
 * Reads the HTLC calls of the transactions that touched one address inside a window of its history,
 * oldest first, a bounded amount per step, resumable from a state that can be kept (JSON).
 *
 * Anyone can send transactions naming an address, cheaply and without end, so a window is fixed when its
 * scan begins: it runs from the newest signature at its first listing down to its floor (a signature, a slot at
 * or below which nothing can matter, or both). Transactions sent after the scan began are above it and
 * never part of it; when a scan ends without what its reader wanted (a node whose listing lagged), the
 * reader starts a new one above it. Failed transactions are skipped by their listing alone. Each step
 * lists at most `pagesPerStep` pages and reads at most `fetchesPerStep` transactions.
 */
import type { PublicKey } from "@solana/web3.js";
import { htlcCallsIn, type HtlcCall, type HtlcProgram } from "./htlc-calls.js";
import type { SolanaRpc } from "./rpc.js";

export interface ScanState {
  /** Exclusive floor: the listing stops at this signature. */
  until: string | null;
  /** Signatures at or below this slot (decimal) are outside the window. */
  aboveSlot: string | null;
  /** The newest signature the first listing saw; null before it. */
  top: string | null;
  /** `before` of the next page; null: the first page, from the newest. */
  cursor: string | null;
  listed: boolean;
  /** Landed transactions of the window not read yet; oldest first once `listed`. */
  pending: string[];
}

export interface ScannedCall {
  signature: string;
  slot: bigint;
  /** Unix seconds of the transaction's block, when the node tells. */
  blockTime: number | null;
  call: HtlcCall;
}

export interface ScanOptions {
  commitment: "confirmed" | "finalized";
  pagesPerStep: number;
  fetchesPerStep: number;
}

/** How a step ended: the reader stopped it, the window is read to its end, or the step's budget ran out. */
export type ScanOutcome = "stopped" | "exhausted" | "budget";

const PAGE = 1000;
/** Transactions read side by side: one after another, a window of spam took minutes. */
const FETCHES_IN_FLIGHT = 16;

export function newScan(floor: { until?: string; aboveSlot?: bigint | null }): ScanState {
  return {
    until: floor.until ?? null,
    aboveSlot: floor.aboveSlot === undefined || floor.aboveSlot === null ? null : floor.aboveSlot.toString(),
    top: null,
    cursor: null,
    listed: false,
    pending: [],
  };
}

/** The window above an exhausted scan: everything sent after it began. */
export function scanAbove(done: ScanState): ScanState {
  return { ...newScan({}), until: done.top ?? done.until, aboveSlot: done.aboveSlot };
}

export class AddressScanner {
  constructor(
    private readonly rpc: SolanaRpc,
    private readonly options: ScanOptions,
  ) {}

  /**
   * One step: lists what is left of the window, then reads its transactions oldest first, giving each
   * one's calls on `account` to `visit` until it returns true. The state is updated in place.
   */
  async step(
    state: ScanState,
    account: PublicKey,
    program: HtlcProgram,
    visit: (calls: ScannedCall[]) => boolean,
  ): Promise<ScanOutcome> {
    if (!state.listed) await this.#list(state, account);
    if (!state.listed) return "budget";
    const address = account.toBase58();
    const batch = state.pending.slice(0, this.options.fetchesPerStep);
    for (let at = 0; at < batch.length; at += FETCHES_IN_FLIGHT) {
      const chunk = batch.slice(at, at + FETCHES_IN_FLIGHT);
      const txs = await Promise.all(chunk.map((s) => this.rpc.getTransaction(s, this.options.commitment)));
      for (const [i, signature] of chunk.entries()) {
        const tx = txs[i];
        // Listed at this commitment, so the node has it: one that does not is behind. Carry on later.
        if (tx === null || tx === undefined) return "budget";
        state.pending.shift();
        const calls = htlcCallsIn(tx, program)
          .filter((call) => call.swapAccount === address)
          .map((call) => ({ signature, slot: tx.slot, blockTime: tx.blockTime ?? null, call }));
        if (calls.length > 0 && visit(calls)) return "stopped";
      }
    }
    return state.pending.length === 0 ? "exhausted" : "budget";
  }

  async #list(state: ScanState, account: PublicKey): Promise<void> {
    const aboveSlot = state.aboveSlot === null ? null : BigInt(state.aboveSlot);
    for (let page = 0; page < this.options.pagesPerStep && !state.listed; page++) {
      const batch = await this.rpc.getSignaturesForAddress(account, {
        commitment: this.options.commitment,
        limit: PAGE,
        ...(state.until === null ? {} : { until: state.until }),
        ...(state.cursor === null ? {} : { before: state.cursor }),
      });
      if (state.cursor === null) state.top = batch[0]?.signature ?? state.until;
      let belowWindow = false;
      for (const info of batch) {
        if (aboveSlot !== null && info.slot <= aboveSlot) {
          belowWindow = true;
          break;
        }
        if (info.err === null || info.err === undefined) state.pending.push(info.signature);
      }
      const last = batch.at(-1);
      if (last !== undefined) state.cursor = last.signature;
      if (belowWindow || batch.length < PAGE) {
        state.listed = true;
        state.pending.reverse();
      }
    }
  }
}
