import PQueue from "p-queue";
import type { Address, PublicClient } from "viem";
import type { JournalView, TxAttemptRef } from "../chain.js";

/**
 * A nonce handed out but not yet visible in the journal is held this long. The runner journals a
 * signed transaction right after build returns, so the hold only bridges that instant; a build whose
 * transaction is never journaled cannot leave a permanent gap.
 */
const DEFAULT_RESERVATION_TTL_MS = 30_000;

/** next = max(chain pending count, 1 + highest live journal nonce, 1 + highest recent reservation). */
export function deriveNextNonce(
  pendingCount: bigint,
  liveAttempts: readonly Pick<TxAttemptRef, "nonce">[],
  reserved: readonly bigint[] = [],
): bigint {
  let next = pendingCount;
  for (const nonce of [...liveAttempts.map((a) => a.nonce), ...reserved]) {
    if (nonce !== null && nonce + 1n > next) next = nonce + 1n;
  }
  return next;
}

/**
 * Nonces below the highest one the journal or a reservation holds that nothing holds: not mined, not in
 * the node's pool (`pendingCount` stops at the first hole), not journaled, not reserved. Every later
 * transaction of the account waits behind them.
 */
export function nonceGaps(pendingCount: bigint, taken: readonly (bigint | null)[]): bigint[] {
  const held = new Set(taken.filter((n): n is bigint => n !== null));
  let top = -1n;
  for (const nonce of held) if (nonce > top) top = nonce;
  const gaps: bigint[] = [];
  for (let nonce = pendingCount; nonce < top; nonce++) if (!held.has(nonce)) gaps.push(nonce);
  return gaps;
}

export interface EvmNonceManagerOptions {
  chain: string;
  address: Address;
  client: PublicClient;
  journal: JournalView;
  reservationTtlMs?: number;
  now?: () => number;
}

/** Serializes every nonce-consuming build of one account, so no two transactions share a nonce. */
export class EvmNonceManager {
  private readonly queue = new PQueue({ concurrency: 1 });
  private readonly reservations = new Map<bigint, number>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: EvmNonceManagerOptions) {
    this.ttlMs = options.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * The chain's pending count read now, for a build to hand to `withNextNonce`: read beside the build's
   * simulation, its round trip is not made while every other build of the account waits. A count read
   * early can be lower than one read later only by the account's own transactions sent meanwhile,
   * which the journal holds (live until final, blocks later) or a reservation does.
   */
  pendingNow(): Promise<bigint> {
    return this.pendingCount();
  }

  /** The nonce the next transaction would take right now, without reserving it. */
  async peek(pendingRead?: Promise<bigint>): Promise<bigint> {
    const pending = await (pendingRead ?? this.pendingCount());
    return deriveNextNonce(
      pending,
      this.options.journal.liveAttempts(this.options.chain),
      this.liveReservations(pending),
    );
  }

  /**
   * Runs `build` with the next nonce, one build at a time; `pendingRead` is the build's own `pendingNow`,
   * else the count is read here. The nonce stays reserved when `build` succeeds and is released when it
   * throws.
   */
  withNextNonce<T>(build: (nonce: bigint) => Promise<T>, pendingRead?: Promise<bigint>): Promise<T> {
    return this.withNextNonces(1, build, pendingRead);
  }

  /**
   * As withNextNonce, holding `count` consecutive nonces from the first one given to `build`: a
   * transaction carrying the account's own EIP-7702 authorization consumes its nonce and the next.
   */
  withNextNonces<T>(
    count: number,
    build: (first: bigint) => Promise<T>,
    pendingRead?: Promise<bigint>,
  ): Promise<T> {
    return this.queue.add(async () => {
      const first = await this.peek(pendingRead);
      const held = Array.from({ length: count }, (_, i) => first + BigInt(i));
      for (const nonce of held) this.reservations.set(nonce, this.now());
      try {
        return await build(first);
      } catch (error) {
        for (const nonce of held) this.reservations.delete(nonce);
        throw error;
      }
    });
  }

  /**
   * Runs `fill` for each nonce gap, one build at a time like every other build; each gap is reserved
   * while its filler is built, as a built transaction's nonce is.
   */
  withNonceGaps<T>(fill: (nonce: bigint) => Promise<T>): Promise<T[]> {
    return this.queue.add(async () => {
      const pending = await this.pendingCount();
      const taken = [
        ...this.options.journal.liveAttempts(this.options.chain).map((a) => a.nonce),
        ...this.liveReservations(pending),
      ];
      const filled: T[] = [];
      for (const nonce of nonceGaps(pending, taken)) {
        this.reservations.set(nonce, this.now());
        try {
          filled.push(await fill(nonce));
        } catch (error) {
          this.reservations.delete(nonce);
          throw error;
        }
      }
      return filled;
    });
  }

  private pendingCount(): Promise<bigint> {
    return this.options.client
      .getTransactionCount({ address: this.options.address, blockTag: "pending" })
      .then((count) => BigInt(count));
  }

  private liveReservations(pendingCount: bigint): bigint[] {
    const cutoff = this.now() - this.ttlMs;
    for (const [nonce, at] of this.reservations) {
      if (nonce < pendingCount || at < cutoff) this.reservations.delete(nonce);
    }
    return [...this.reservations.keys()];
  }
}
