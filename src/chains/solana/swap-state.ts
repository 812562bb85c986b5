/**
 * A swap account as `HtlcState` (pure). Each initiation of the terms is one lock: the account can be
 * closed (redeemed, refunded) and the same terms initiated again at the same address, so a lock is named
 * by the address and the slot of its initiation, and is the solver's only when the solver's journaled
 * transaction made it. Its spend is what closed that initiation, never a later one's.
 */
import type { PublicKey } from "@solana/web3.js";
import { UNATTRIBUTED, type HtlcLock, type HtlcState } from "../chain.js";
import type { Initiation, InitiationClose } from "./initiation-follower.js";
import type { StoredSwap } from "./stored-swap.js";
import type { SwapTerms } from "./swap-terms.js";

/** A live swap account as the reader needs it: what it stores, with the timelock always known. */
export interface LiveSwap extends Omit<StoredSwap, "timelock"> {
  timelock: bigint;
}

/** `<swap account>:<initiation slot>`. */
export function lockId(address: PublicKey, initiatedAt: bigint): string {
  return `${address.toBase58()}:${initiatedAt.toString()}`;
}

/** The slot the live swap was initiated at: the programs store expiry_slot = initiation slot + timelock. */
export function initiationSlot(swap: Pick<LiveSwap, "expirySlot" | "timelock">): bigint {
  return swap.expirySlot - swap.timelock;
}

function lockOf(
  address: PublicKey,
  terms: Pick<SwapTerms, "swapAmount" | "timelock">,
  initiatedAt: bigint,
  fundingTx: string,
): HtlcLock {
  return {
    id: lockId(address, initiatedAt),
    fundingTx,
    value: terms.swapAmount,
    height: initiatedAt,
    // The programs refund only when the current slot is past expiry_slot = initiation + timelock.
    refundableAtHeight: initiatedAt + terms.timelock + 1n,
    worthSpending: terms.swapAmount > 0n,
    spend: null,
  };
}

/** The account's address commits to its terms, so any record there carries exactly these. */
function onChainOf(terms: Pick<SwapTerms, "redeemer" | "refundee" | "swapAmount" | "timelock">) {
  return {
    initiator: terms.refundee.toBase58(),
    redeemer: terms.redeemer.toBase58(),
    timelock: terms.timelock,
    amount: terms.swapAmount,
  };
}

/**
 * A live account whose maker the reader does not know (a source the user locked; a destination before
 * any fill of the solver's landed): one unspent lock.
 */
export function liveSwapState(swap: LiveSwap): HtlcState {
  return {
    locks: [lockOf(swap.address, swap, initiationSlot(swap), UNATTRIBUTED)],
    onChain: onChainOf(swap),
    secret: null,
    occupied: true,
  };
}

/**
 * The solver's own initiation (its landed fill) and, when the account no longer holds it, what closed it
 * (null while that is still being searched for: the lock is spent, how is not known yet), beside any
 * other initiation now live at the address.
 */
export function followedSwapState(
  address: PublicKey,
  terms: SwapTerms,
  own: Initiation,
  fate: { alive: true } | { alive: false; close: InitiationClose | null },
  live: LiveSwap | null,
  occupied = live !== null,
): HtlcState {
  const lock = lockOf(address, terms, own.slot, own.signature);
  if (!fate.alive) {
    const close = fate.close;
    lock.spend =
      close === null
        ? { kind: "unknown", txid: null, height: null }
        : { kind: close.kind, txid: close.signature, height: close.slot };
  }
  const locks = [lock];
  const other = fate.alive || live === null ? null : live;
  if (other !== null) locks.push(lockOf(address, other, initiationSlot(other), UNATTRIBUTED));
  const secret = fate.alive ? null : fate.close?.secret;
  return {
    locks,
    onChain: onChainOf(terms),
    secret: secret === null || secret === undefined ? null : Buffer.from(secret).toString("hex"),
    occupied,
  };
}
