/**
 * Quotes from the latest snapshot, with the same code as the main thread (`quoteFor`), or the refusal
 * `state_stale` when that snapshot is older than the bound: a main thread that stopped sending them
 * (stuck, or starved) must never leave quotes standing on old prices or inventory.
 */
import type { QuoteFunction } from "../quote-server.js";
import { quoteFor, type QuoteDeps } from "../quote.js";
import { refuse } from "../refusal.js";
import { quoteDepsFromSnapshot } from "./snapshot-deps.js";
import type { QuoteSnapshot } from "./snapshot.js";

export class SnapshotQuoter {
  private snapshot: QuoteSnapshot;
  private deps: QuoteDeps;

  constructor(
    first: QuoteSnapshot,
    /** How old (ms) a snapshot may be and still be quoted from. */
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.snapshot = first;
    this.deps = quoteDepsFromSnapshot(first, now);
  }

  /** Puts a newer snapshot in force; one taken before the one in force (a late message) is ignored. */
  update(snapshot: QuoteSnapshot): void {
    if (snapshot.takenAtMs < this.snapshot.takenAtMs) return;
    this.snapshot = snapshot;
    this.deps = quoteDepsFromSnapshot(snapshot, this.now);
  }

  quote: QuoteFunction = async (request) => {
    const ageMs = this.now() - this.snapshot.takenAtMs;
    if (ageMs > this.maxAgeMs) {
      return refuse(
        "state_stale",
        `the quote thread's copy of prices and inventory is ${ageMs} ms old, more than ${this.maxAgeMs} ms: the main thread has sent no newer one`,
      );
    }
    const answer = await quoteFor(request, this.deps);
    return answer.ok ? answer.item : answer;
  };
}
