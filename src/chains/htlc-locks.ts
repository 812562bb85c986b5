/**
 * Questions asked of an HTLC's locks, one lock at a time (see `HtlcLock`). The planner decides with
 * these and names, in each action, the locks the executor may spend; nothing sums value or depth over
 * an HTLC as a whole, since an attacker can add outputs of any value and depth to a Bitcoin address.
 */
import type { HtlcLock, HtlcState } from "./chain.js";

/**
 * Most locks of one HTLC the solver counts or spends. Bounds the size (and fee) of every transaction
 * spending HTLCs: an attacker who splits a deposit into many outputs gains nothing, since the solver
 * counts only the largest few and never fills on value it would not spend.
 */
export const MAX_LOCKS_PER_HTLC = 8;

/** Confirmations of a lock at this tip, per `tip - height + 1`; 0 while unmined. */
export function lockDepth(lock: HtlcLock, tip: bigint): number {
  if (lock.height === null || tip < lock.height) return 0;
  return Number(tip - lock.height + 1n);
}

/** The chain has seen at least one lock, at any depth, spent or not. */
export function hasLocks(state: HtlcState | null): boolean {
  return state !== null && state.locks.length > 0;
}

export function unspentLocks(locks: readonly HtlcLock[]): HtlcLock[] {
  return locks.filter((lock) => lock.spend === null);
}

export function lockedValue(locks: readonly HtlcLock[]): bigint {
  return locks.reduce((sum, lock) => sum + lock.value, 0n);
}

/** The earliest height at which any of these locks can be refunded; null when none is mined. */
export function earliestRefundHeight(locks: readonly HtlcLock[]): bigint | null {
  let earliest: bigint | null = null;
  for (const lock of locks) {
    const at = lock.refundableAtHeight;
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

/**
 * The locks a party's own transactions created. On Bitcoin that is outputs of transactions it journaled
 * (anyone may pay the same address: dust there is not a fill); on account chains the one record at a
 * swap id, which only the parameters that id commits to can have created.
 */
export function ownLocks(locks: readonly HtlcLock[], ownTxids: ReadonlySet<string>): HtlcLock[] {
  return locks.filter((lock) => lock.fundingTx === null || ownTxids.has(lock.fundingTx));
}

/** Largest first; ties by id, so the same facts always choose the same locks. */
function largestFirst(a: HtlcLock, b: HtlcLock): number {
  if (a.value !== b.value) return a.value > b.value ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The locks the solver may rely on and spend: unspent, worth spending, at least `minDepth` deep,
 * the largest `MAX_LOCKS_PER_HTLC` of them. A source is covered by these at its required depth; a
 * redeem spends these at depth 1 (never an unconfirmed lock that its sender could still evict).
 */
export function usableLocks(state: HtlcState, tip: bigint, minDepth: number): HtlcLock[] {
  const depth = Math.max(1, minDepth);
  return unspentLocks(state.locks)
    .filter((lock) => lock.worthSpending && lockDepth(lock, tip) >= depth)
    .sort(largestFirst)
    .slice(0, MAX_LOCKS_PER_HTLC);
}

/** Locks whose refund can be mined in the next block: mined, unspent, worth spending, past their own lock. */
export function refundableLocks(locks: readonly HtlcLock[], tip: bigint): HtlcLock[] {
  return unspentLocks(locks)
    .filter((lock) => lock.worthSpending && lock.refundableAtHeight !== null)
    .filter((lock) => tip + 1n >= (lock.refundableAtHeight as bigint))
    .sort(largestFirst)
    .slice(0, MAX_LOCKS_PER_HTLC);
}
