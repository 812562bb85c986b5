/**
 * Which followed order an event on a chain concerns: every order the runner processed, by the swap id of
 * each of its HTLCs, and the orders whose fill waits on their source chain's next block. The chain watch
 * asks it which orders a new block makes worth processing at once.
 */
import type { HtlcParams } from "../chains/chain.js";

/** Planner waits that a new block of the source chain can end. */
const SOURCE_WAITS: ReadonlySet<string> = new Set([
  "source_not_initiated",
  "source_unconfirmed",
  "source_underfunded",
  "source_chain_unreadable",
]);

export function waitsOnSource(reason: string | null): boolean {
  return reason !== null && SOURCE_WAITS.has(reason);
}

/** Swap ids compare without 0x and case, as chains and the service may write them either way. */
function swapKey(chain: string, swapId: string): string {
  return `${chain}\u0000${swapId.toLowerCase().replace(/^0x/, "")}`;
}

/** What the watch holds of one order: its HTLCs' keys, and the chain its fill waits on, if any. */
interface Watched {
  keys: string[];
  waitsOn: string | null;
}

export class WatchedOrders {
  private readonly byOrder = new Map<string, Watched>();
  private readonly bySwap = new Map<string, string>();
  /** Per source chain, the orders whose last plan waited on that chain. */
  private readonly sourceWaits = new Map<string, Set<string>>();
  /** Per chain, how many followed HTLCs are on it. */
  private readonly perChain = new Map<string, number>();

  /** What the last processing of an order found: its HTLCs, and whether its fill waits on its source chain. */
  note(
    orderId: string,
    sides: { source: HtlcParams; destination: HtlcParams },
    waitingOnSource: boolean,
  ): void {
    this.forget(orderId);
    const keys = [sides.source, sides.destination].map((p) => swapKey(p.chain, p.swapId));
    for (const key of keys) {
      this.bySwap.set(key, orderId);
      this.count(key, 1);
    }
    const waitsOn = waitingOnSource ? sides.source.chain : null;
    this.byOrder.set(orderId, { keys, waitsOn });
    if (waitsOn === null) return;
    const waiting = this.sourceWaits.get(waitsOn) ?? new Set<string>();
    waiting.add(orderId);
    this.sourceWaits.set(waitsOn, waiting);
  }

  has(orderId: string): boolean {
    return this.byOrder.has(orderId);
  }

  /** A settled order: no event concerns it any more. */
  forget(orderId: string): void {
    const watched = this.byOrder.get(orderId);
    if (watched === undefined) return;
    for (const key of watched.keys) {
      // Two orders may name one HTLC (a service that lies); the other keeps it.
      if (this.bySwap.get(key) === orderId) this.bySwap.delete(key);
      this.count(key, -1);
    }
    if (watched.waitsOn !== null) this.sourceWaits.get(watched.waitsOn)?.delete(orderId);
    this.byOrder.delete(orderId);
  }

  /** Followed orders with an HTLC at one of these swap ids on this chain. */
  ordersAt(chain: string, swapIds: readonly string[]): string[] {
    const found = new Set<string>();
    for (const swapId of swapIds) {
      const orderId = this.bySwap.get(swapKey(chain, swapId));
      if (orderId !== undefined) found.add(orderId);
    }
    return [...found];
  }

  /** Whether any followed order has an HTLC on this chain. */
  follows(chain: string): boolean {
    return (this.perChain.get(chain) ?? 0) > 0;
  }

  /** Orders whose fill waits on this chain's next block (its deposit, or the deposit's confirmations). */
  waitingOn(chain: string): string[] {
    return [...(this.sourceWaits.get(chain) ?? [])];
  }

  private count(key: string, by: number): void {
    const chain = key.slice(0, key.indexOf("\u0000"));
    this.perChain.set(chain, (this.perChain.get(chain) ?? 0) + by);
  }
}
