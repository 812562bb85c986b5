/**
 * Follows one initiation of a swap account from the transaction that made it forward, to learn what
 * closed it (redeem with its secret, refund, instant refund). The programs accept the same terms again
 * at the same address once an account closes, so the account alone cannot tell: a user can redeem the
 * solver's fill and initiate the same terms again in one transaction, and the address looks untouched.
 *
 * Anyone can send transactions that name an address, cheaply and without end, so the search is bounded
 * by what the solver itself saw rather than by what an attacker sent (`AddressScanner`): the close lies
 * after the initiating transaction and after the last slot at which the account was seen holding the
 * initiation (`aliveThrough`), and at or before the newest signature when the search began. Each read
 * does a bounded step of it, and the position is kept (`FollowPositions`, in the journal) across reads
 * and restarts: the work is what the attacker put inside that window, paid once, never started over,
 * never given up.
 */
import type { PublicKey } from "@solana/web3.js";
import type { FollowPositions } from "../follow-positions.js";
import { AddressScanner, newScan, scanAbove, type ScanState } from "./address-scan.js";
import type { HtlcProgram } from "./htlc-calls.js";
import type { SolanaRpc } from "./rpc.js";

/** The transaction that made an initiation, and its slot (the programs' initiation slot). */
export interface Initiation {
  signature: string;
  slot: bigint;
}

export type CloseKind = "redeem" | "refund" | "instant_refund";

export interface InitiationClose {
  kind: CloseKind;
  signature: string;
  slot: bigint;
  /** Unix seconds of its block, when the node tells. */
  blockTime: number | null;
  /** The secret a redeem revealed; null for refunds. */
  secret: Uint8Array | null;
}

export interface FollowerOptions {
  commitment: "confirmed" | "finalized";
  /** Pages of signatures (1000 each) listed per read at most. */
  pagesPerRead?: number;
  /** Transactions fetched per read at most. */
  fetchesPerRead?: number;
}

/** A live sighting moves the kept position only this far at a time: a restart searches at most this much more. */
const PERSIST_ALIVE_EVERY_SLOTS = 150n;

interface Position {
  aliveThrough: bigint | null;
  /** `aliveThrough` as last written to the store. */
  kept: bigint | null;
  search: ScanState | null;
  close: InitiationClose | null;
}

interface KeptPosition {
  aliveThrough: string | null;
  search: ScanState | null;
  close: {
    kind: CloseKind;
    signature: string;
    slot: string;
    blockTime: number | null;
    secret: string | null;
  } | null;
}

function encode(position: Position): string {
  const { close } = position;
  const kept: KeptPosition = {
    aliveThrough: position.aliveThrough?.toString() ?? null,
    search: position.search,
    close:
      close === null
        ? null
        : {
            kind: close.kind,
            signature: close.signature,
            slot: close.slot.toString(),
            blockTime: close.blockTime,
            secret: close.secret === null ? null : Buffer.from(close.secret).toString("hex"),
          },
  };
  return JSON.stringify(kept);
}

function decode(text: string): Position {
  const kept = JSON.parse(text) as KeptPosition;
  const aliveThrough = kept.aliveThrough === null ? null : BigInt(kept.aliveThrough);
  const close = kept.close;
  return {
    aliveThrough,
    kept: aliveThrough,
    search: kept.search,
    close:
      close === null
        ? null
        : {
            kind: close.kind,
            signature: close.signature,
            slot: BigInt(close.slot),
            blockTime: close.blockTime,
            secret: close.secret === null ? null : new Uint8Array(Buffer.from(close.secret, "hex")),
          },
  };
}

export class InitiationFollower {
  readonly #positions = new Map<string, Position>();
  /** One search per followed initiation at a time: two would read the same window twice. */
  readonly #busy = new Map<string, Promise<InitiationClose | null>>();
  readonly #scanner: AddressScanner;

  constructor(
    rpc: SolanaRpc,
    private readonly store: FollowPositions,
    options: FollowerOptions,
  ) {
    this.#scanner = new AddressScanner(rpc, {
      commitment: options.commitment,
      pagesPerStep: options.pagesPerRead ?? 5,
      fetchesPerStep: options.fetchesPerRead ?? 200,
    });
  }

  /** The account held this initiation at the end of `slot`; so it did at every slot before. */
  seenAlive(account: PublicKey, initiation: Initiation, slot: bigint): void {
    const key = keyOf(account, initiation);
    const position = this.#position(key);
    if (position.aliveThrough !== null && position.aliveThrough >= slot) return;
    position.aliveThrough = slot;
    if (position.kept === null || slot - position.kept >= PERSIST_ALIVE_EVERY_SLOTS)
      this.#keep(key, position);
  }

  /**
   * What closed this initiation, once the account is seen without it; null while the search goes on
   * (the next read carries on where this one stopped).
   */
  close(account: PublicKey, program: HtlcProgram, initiation: Initiation): Promise<InitiationClose | null> {
    const key = keyOf(account, initiation);
    const running = this.#busy.get(key);
    if (running !== undefined) return running;
    const search = this.#search(key, account, program, initiation).finally(() => this.#busy.delete(key));
    this.#busy.set(key, search);
    return search;
  }

  async #search(
    key: string,
    account: PublicKey,
    program: HtlcProgram,
    initiation: Initiation,
  ): Promise<InitiationClose | null> {
    const position = this.#position(key);
    if (position.close !== null) return position.close;
    position.search ??= newScan({ until: initiation.signature, aboveSlot: position.aliveThrough });
    try {
      const outcome = await this.#scanner.step(position.search, account, program, (calls) => {
        // The first close after the initiation closed it: nothing else could while it lived.
        const found = calls.find((c) => c.call.name !== "initiate");
        if (found === undefined || found.call.name === "initiate") return false;
        position.close = {
          kind: found.call.name,
          signature: found.signature,
          slot: found.slot,
          blockTime: found.blockTime,
          secret: found.call.name === "redeem" ? found.call.secret : null,
        };
        return true;
      });
      // The window held no close: its listing was taken before the close showed. Search above it.
      if (outcome === "exhausted") position.search = scanAbove(position.search);
      return position.close;
    } finally {
      this.#keep(key, position);
    }
  }

  #position(key: string): Position {
    let position = this.#positions.get(key);
    if (position === undefined) {
      const kept = this.store.get(key);
      position = kept === null ? { aliveThrough: null, kept: null, search: null, close: null } : decode(kept);
      this.#positions.set(key, position);
    }
    return position;
  }

  #keep(key: string, position: Position): void {
    this.store.set(key, encode(position));
    position.kept = position.aliveThrough;
  }
}

function keyOf(account: PublicKey, initiation: Initiation): string {
  return `initiation:${account.toBase58()}:${initiation.signature}`;
}
