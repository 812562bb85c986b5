/**
 * The account's nonces. The next is the highest of the account's nonce on chain (counting its
 * pre-confirmed transactions), one past the highest a live journaled attempt holds, and one past the
 * highest handed out moments ago and not journaled yet: after a crash the journal and `starknet_getNonce`
 * give it back. Builds that take a nonce run one at a time, so no two transactions share one by accident.
 */
import PQueue from "p-queue";
import type { JournalView } from "../chain.js";

/** A nonce handed out but not yet in the journal is held this long (the runner journals right after build). */
const RESERVATION_TTL_MS = 30_000;

export interface StarknetNoncesOptions {
  chain: string;
  journal: JournalView;
  /** The account's nonce on chain, pre-confirmed transactions counted. */
  accountNonce: () => Promise<bigint>;
  now?: () => number;
}

export class StarknetNonces {
  readonly #queue = new PQueue({ concurrency: 1 });
  readonly #reserved = new Map<bigint, number>();
  readonly #options: StarknetNoncesOptions;
  readonly #now: () => number;

  constructor(options: StarknetNoncesOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Runs `build` with the next nonce, one build at a time; the nonce is released when it throws. */
  withNext<T>(build: (nonce: bigint) => Promise<T>): Promise<T> {
    return this.#queue.add(async () => {
      const onChain = await this.#options.accountNonce();
      const nonce = this.#next(onChain);
      this.#reserved.set(nonce, this.#now());
      try {
        return await build(nonce);
      } catch (error) {
        this.#reserved.delete(nonce);
        throw error;
      }
    });
  }

  /** Runs `fill` for each nonce below the highest held that nothing holds (a hole later ones wait behind). */
  withGaps<T>(fill: (nonce: bigint) => Promise<T>): Promise<T[]> {
    return this.#queue.add(async () => {
      const onChain = await this.#options.accountNonce();
      const held = new Set(this.#held(onChain));
      let top = -1n;
      for (const nonce of held) if (nonce > top) top = nonce;
      const filled: T[] = [];
      for (let nonce = onChain; nonce < top; nonce++) {
        if (held.has(nonce)) continue;
        this.#reserved.set(nonce, this.#now());
        try {
          filled.push(await fill(nonce));
        } catch (error) {
          this.#reserved.delete(nonce);
          throw error;
        }
      }
      return filled;
    });
  }

  #next(onChain: bigint): bigint {
    let next = onChain;
    for (const nonce of this.#held(onChain)) if (nonce + 1n > next) next = nonce + 1n;
    return next;
  }

  #held(onChain: bigint): bigint[] {
    const cutoff = this.#now() - RESERVATION_TTL_MS;
    for (const [nonce, at] of this.#reserved)
      if (nonce < onChain || at < cutoff) this.#reserved.delete(nonce);
    const live = this.#options.journal
      .liveAttempts(this.#options.chain)
      .map((attempt) => attempt.nonce)
      .filter((nonce): nonce is bigint => nonce !== null && nonce >= onChain);
    return [...live, ...this.#reserved.keys()];
  }
}
