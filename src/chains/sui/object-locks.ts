/**
 * Owned objects in flight. A Sui owned object taken by two different signed transactions at one version
 * is equivocation: validators lock it to the first they see and the other can never run, and the object
 * may stay locked until the epoch ends. So each owned object is in at most one live transaction: those of
 * the journal's live attempts (their terms list them, so a restart gives them back) and those handed out
 * moments ago and not journaled yet. An object-lock set rather than one transaction in flight per account:
 * a fill, a redeem and a refund may then go at once, each paying gas with its own coins.
 */
import type { JournalView } from "../chain.js";

/** An object handed out but not yet in the journal is held this long (the runner journals right after build). */
const RESERVATION_TTL_MS = 30_000;

/** `0x…@version` as journaled, to the object id. */
export function objectIdOf(ownedInput: string): string {
  return ownedInput.split("@")[0] ?? ownedInput;
}

export class SuiObjectLocks {
  readonly #reserved = new Map<string, number>();

  constructor(
    private readonly chain: string,
    private readonly journal: JournalView,
    private readonly now: () => number = Date.now,
  ) {}

  /** Object ids a live transaction holds. */
  held(): Set<string> {
    const cutoff = this.now() - RESERVATION_TTL_MS;
    for (const [id, at] of this.#reserved) if (at < cutoff) this.#reserved.delete(id);
    const held = new Set(this.#reserved.keys());
    for (const attempt of this.journal.liveAttempts(this.chain)) {
      if (attempt.terms.family !== "sui") continue;
      for (const input of attempt.terms.ownedInputs) held.add(objectIdOf(input));
    }
    return held;
  }

  reserve(objectIds: readonly string[]): void {
    const at = this.now();
    for (const id of objectIds) this.#reserved.set(id, at);
  }

  release(objectIds: readonly string[]): void {
    for (const id of objectIds) this.#reserved.delete(id);
  }
}
