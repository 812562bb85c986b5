/**
 * Which followed order an event on a chain concerns: every order the runner processed, by the swap id of
 * each of its HTLCs, and the orders whose fill waits on their source chain's next block. The chain watch
 * asks it which orders a new block makes worth processing at once.
 */
import type { HtlcParams } from "../chains/chain.js";

/**
 * How a new block of the source chain can end a wait: "lock", only by paying or initiating the order's
 * HTLC (an event the chain can list); "block", by any block (confirmations still to come, a chain that
 * could not be read).
 */
export type SourceWait = "lock" | "block";

/** Planner waits that a new block of the source chain can end. */
const SOURCE_WAITS: ReadonlyMap<string, SourceWait> = new Map([
  ["source_not_initiated", "lock"],
  ["source_underfunded", "lock"],
  ["source_unconfirmed", "block"],
  ["source_chain_unreadable", "block"],
]);

export function sourceWaitOf(reason: string | null): SourceWait | null {
  return reason === null ? null : (SOURCE_WAITS.get(reason) ?? null);
}

/** Swap ids compare without 0x and case, as chains and the service may write them either way. */
function swapKey(chain: string, swapId: string): string {
  return `${chain}\u0000${swapId.toLowerCase().replace(/^0x/, "")}`;
}

/** What the watch holds of one order: its HTLCs, their keys, and the chain its fill waits on, if any. */
interface Watched {
  sides: { source: HtlcParams; destination: HtlcParams };
  keys: string[];
  waitsOn: string | null;
}

export class WatchedOrders {
  private readonly byOrder = new Map<string, Watched>();
  private readonly bySwap = new Map<string, string>();
  /** Per source chain, the orders whose last plan waited on that chain, and how. */
  private readonly sourceWaits = new Map<string, Map<string, SourceWait>>();
  /** Per chain, how many followed HTLCs are on it. */
  private readonly perChain = new Map<string, number>();

  /** What the last processing of an order found: its HTLCs, and how its fill waits on its source chain. */
  note(
    orderId: string,
    sides: { source: HtlcParams; destination: HtlcParams },
    sourceWait: SourceWait | null,
  ): void {
    this.forget(orderId);
    const keys = [sides.source, sides.destination].map((p) => swapKey(p.chain, p.swapId));
    for (const key of keys) {
      this.bySwap.set(key, orderId);
      this.count(key, 1);
    }
    const chain = sides.source.chain;
    this.byOrder.set(orderId, { sides, keys, waitsOn: sourceWait === null ? null : chain });
    if (sourceWait === null) return;
    const waiting = this.sourceWaits.get(chain) ?? new Map<string, SourceWait>();
    waiting.set(orderId, sourceWait);
    this.sourceWaits.set(chain, waiting);
  }

  has(orderId: string): boolean {
    return this.byOrder.has(orderId);
  }

  /** A followed order's HTLCs as its last pass held them; undefined once forgotten. */
  sidesOf(orderId: string): { source: HtlcParams; destination: HtlcParams } | undefined {
    return this.byOrder.get(orderId)?.sides;
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

  /** Orders whose fill waits on this chain's next block: all of them, or only those waiting this way. */
  waitingOn(chain: string, only?: SourceWait): string[] {
    const waiting = this.sourceWaits.get(chain);
    if (waiting === undefined) return [];
    if (only === undefined) return [...waiting.keys()];
    const found: string[] = [];
    for (const [orderId, wait] of waiting) if (wait === only) found.push(orderId);
    return found;
  }

  private count(key: string, by: number): void {
    const chain = key.slice(0, key.indexOf("\u0000"));
    this.perChain.set(chain, (this.perChain.get(chain) ?? 0) + by);
  }
}
