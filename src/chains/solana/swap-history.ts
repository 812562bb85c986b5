/**
 * What happened to one swap account, from the transactions that touched it: each initiation of the
 * swap's terms and what closed it (redeem, refund, instant refund), with slots and signatures. A closed
 * account leaves no state behind, so its history is the only record of how it ended and of the secret.
 *
 * Anyone can send transactions that touch an address, so history is read incrementally and never
 * concluded from in part: each account's events and the newest signature fully read are kept, each read
 * fetches only newer signatures, at most `fetchBudget` transactions per read (oldest first), and a read
 * that could not finish throws (`SwapHistoryIncompleteError`) rather than report a partial history; the
 * next read carries on where it stopped.
 */
import type { PublicKey } from "@solana/web3.js";
import type { HtlcProgramKind } from "./errors.js";
import { decodeHtlcEvents, type HtlcEvent } from "./events.js";
import type { SolanaRpc } from "./rpc.js";
import type { SignatureInfo } from "./rpc-schemas.js";
import { secretMatches } from "./swap-params.js";
import type { SwapTerms } from "./swap-terms.js";

export interface SwapEvent {
  signature: string;
  slot: bigint;
  /** Unix seconds of the event's block, when the node tells. */
  blockTime: number | null;
  event: HtlcEvent;
}

export class SwapHistoryIncompleteError extends Error {
  constructor(account: string, detail: string) {
    super(`history of swap account ${account} is not fully read yet: ${detail}`);
    this.name = "SwapHistoryIncompleteError";
  }
}

export interface SwapHistoryOptions {
  commitment: "confirmed" | "finalized";
  /** Transactions fetched per read at most. */
  fetchBudget?: number;
  /** Pages of 1000 signatures listed per read at most. */
  maxPages?: number;
}

interface AccountHistory {
  /** The newest signature up to which every transaction has been read. */
  cursor: string | undefined;
  /** Events of the HTLC program in transactions that succeeded, oldest first. */
  events: SwapEvent[];
  /** Signatures listed but not read yet, oldest first. */
  pending: SignatureInfo[];
}

const PAGE = 1000;

/** The event concerns exactly these terms (and this mint, on the SPL program). */
export function eventMatches(event: HtlcEvent, terms: SwapTerms, mint: PublicKey | null): boolean {
  if (!event.redeemer.equals(terms.redeemer) || !event.refundee.equals(terms.refundee)) return false;
  if (event.swapAmount !== terms.swapAmount || event.timelock !== terms.timelock) return false;
  if (mint !== null && (event.mint === undefined || !event.mint.equals(mint))) return false;
  const hashOk =
    event.name === "Redeemed"
      ? secretMatches(event.secret, terms.secretHash)
      : Buffer.from(event.secretHash).equals(Buffer.from(terms.secretHash));
  return hashOk;
}

export class SwapHistory {
  readonly #accounts = new Map<string, AccountHistory>();
  readonly #fetchBudget: number;
  readonly #maxPages: number;

  constructor(
    private readonly rpc: SolanaRpc,
    private readonly options: SwapHistoryOptions,
  ) {
    this.#fetchBudget = options.fetchBudget ?? 50;
    this.#maxPages = options.maxPages ?? 10;
  }

  /** Every HTLC event of `programId` in successful transactions that touched `account`, oldest first. */
  async events(account: PublicKey, kind: HtlcProgramKind, programId: PublicKey): Promise<SwapEvent[]> {
    const key = account.toBase58();
    const history = this.#accounts.get(key) ?? { cursor: undefined, events: [], pending: [] };
    this.#accounts.set(key, history);
    if (history.pending.length === 0)
      history.pending = await this.#newSignatures(key, account, history.cursor);
    let fetched = 0;
    while (history.pending.length > 0) {
      const next = history.pending[0] as SignatureInfo;
      if (next.err === null || next.err === undefined) {
        if (fetched >= this.#fetchBudget) {
          throw new SwapHistoryIncompleteError(key, `${history.pending.length} transactions left to read`);
        }
        fetched++;
        history.events.push(...(await this.#eventsOf(next, kind, programId)));
      }
      history.pending.shift();
      history.cursor = next.signature;
    }
    return history.events;
  }

  /** Signatures newer than `until`, oldest first. */
  async #newSignatures(key: string, account: PublicKey, until: string | undefined): Promise<SignatureInfo[]> {
    const listed: SignatureInfo[] = [];
    let before: string | undefined;
    for (let page = 0; page < this.#maxPages; page++) {
      const batch = await this.rpc.getSignaturesForAddress(account, {
        commitment: this.options.commitment,
        limit: PAGE,
        ...(before === undefined ? {} : { before }),
        ...(until === undefined ? {} : { until }),
      });
      listed.push(...batch);
      if (batch.length < PAGE) return listed.reverse();
      before = batch[batch.length - 1]?.signature;
    }
    throw new SwapHistoryIncompleteError(key, `more than ${this.#maxPages * PAGE} transactions touched it`);
  }

  async #eventsOf(info: SignatureInfo, kind: HtlcProgramKind, programId: PublicKey): Promise<SwapEvent[]> {
    const tx = await this.rpc.getTransaction(info.signature, this.options.commitment);
    // Listed at this commitment, so the node has it; a node that does not is behind: try again later.
    if (tx === null)
      throw new SwapHistoryIncompleteError(info.signature, "a listed transaction is not found");
    if (tx.meta === null || (tx.meta.err !== null && tx.meta.err !== undefined)) return [];
    const logs = tx.meta.logMessages ?? [];
    return decodeHtlcEvents(kind, programId, logs).map((event) => ({
      signature: info.signature,
      slot: tx.slot,
      blockTime: tx.blockTime ?? null,
      event,
    }));
  }
}
