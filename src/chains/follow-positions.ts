/**
 * Where a reader stands in following something on its chain (how far a history was read, up to which
 * slot a lock was seen alive), kept so that a restart resumes the work instead of starting it over: an
 * attacker who makes a history long enough that reading it takes many rounds must not win by waiting for
 * a restart. Values are opaque text owned by the reader that wrote them; keys are the reader's own.
 */
export interface FollowPositions {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

/** Where each chain's reader keeps its positions (the journal). */
export interface FollowPositionsSource {
  followPositions(chain: string): FollowPositions;
}

/** Positions kept in memory only: for tests and for readers whose work is cheap to redo. */
export class MemoryFollowPositions implements FollowPositions {
  readonly #values = new Map<string, string>();

  get(key: string): string | null {
    return this.#values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.#values.set(key, value);
  }
}
