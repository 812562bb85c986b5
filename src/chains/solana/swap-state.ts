/**
 * A swap account as `HtlcState` (pure). Each initiation of the terms is one lock: the account can be
 * closed (redeemed, refunded) and the same terms initiated again at the same address, so a lock is
 * named by the address and the slot of its initiation, and its spend is the transaction that closed
 * that initiation, never a later one's.
 */
import type { PublicKey } from "@solana/web3.js";
import type { HtlcLock, HtlcState, LockSpendKind } from "../chain.js";
import type { SwapEvent } from "./swap-history.js";
import type { SwapTerms } from "./swap-terms.js";

/** What a live swap account stores, as the reader needs it. */
export interface LiveSwap {
  address: PublicKey;
  expirySlot: bigint;
  redeemer: PublicKey;
  refundee: PublicKey;
  rentSponsor: PublicKey;
  swapAmount: bigint;
  timelock: bigint;
}

/** `<swap account>:<initiation slot>`; `?` when the initiation was not seen. */
export function lockId(address: PublicKey, initiatedAt: bigint | null): string {
  return `${address.toBase58()}:${initiatedAt === null ? "?" : initiatedAt.toString()}`;
}

function lockOf(
  address: PublicKey,
  terms: Pick<SwapTerms, "swapAmount" | "timelock">,
  initiatedAt: bigint | null,
): HtlcLock {
  return {
    id: lockId(address, initiatedAt),
    // The one record at an address only the terms it commits to can create, whoever paid for it.
    fundingTx: null,
    value: terms.swapAmount,
    height: initiatedAt,
    // The programs refund only when the current slot is past expiry_slot = initiation + timelock.
    refundableAtHeight: initiatedAt === null ? null : initiatedAt + terms.timelock + 1n,
    worthSpending: terms.swapAmount > 0n,
    spend: null,
  };
}

function onChainOf(swap: Pick<LiveSwap, "redeemer" | "refundee" | "swapAmount" | "timelock">) {
  return {
    initiator: swap.refundee.toBase58(),
    redeemer: swap.redeemer.toBase58(),
    timelock: swap.timelock,
    amount: swap.swapAmount,
  };
}

/** A live account: one unspent lock, initiated at expiry_slot − timelock, terms read back from it. */
export function liveSwapState(swap: LiveSwap): HtlcState {
  return {
    locks: [lockOf(swap.address, swap, swap.expirySlot - swap.timelock)],
    onChain: onChainOf(swap),
    secret: null,
  };
}

const SPEND_KIND: Record<string, LockSpendKind> = {
  Redeemed: "redeem",
  Refunded: "refund",
  InstantRefunded: "instant_refund",
};

/**
 * No live account: the initiations and closes of these terms in the account's history, oldest first.
 * An initiation with no close seen yet (the account read just before it landed) is still unspent.
 */
export function historicSwapState(address: PublicKey, events: readonly SwapEvent[]): HtlcState {
  const locks: HtlcLock[] = [];
  let open: HtlcLock | null = null;
  let secret: string | null = null;
  let latest: SwapEvent["event"] | null = null;
  for (const { event, slot, signature } of events) {
    latest = event;
    if (event.name === "Initiated") {
      open = lockOf(address, event, slot);
      locks.push(open);
      continue;
    }
    if (event.name === "Redeemed") secret = Buffer.from(event.secret).toString("hex");
    const closed = open ?? lockOf(address, event, null);
    if (open === null) locks.push(closed);
    closed.spend = { kind: SPEND_KIND[event.name] ?? "unknown", txid: signature, height: slot };
    open = null;
  }
  return { locks, onChain: latest === null ? null : onChainOf(latest), secret };
}
