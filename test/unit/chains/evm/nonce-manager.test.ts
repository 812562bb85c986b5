import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import type { JournalView } from "../../../../src/chains/chain.js";
import { deriveNextNonce, EvmNonceManager, nonceGaps } from "../../../../src/chains/evm/nonce-manager.js";

describe("deriveNextNonce", () => {
  it("is the chain's pending count when nothing is live", () => {
    expect(deriveNextNonce(7n, [])).toBe(7n);
  });

  it("follows the highest live journal attempt, replaced ones included", () => {
    expect(deriveNextNonce(7n, [{ nonce: 7n }, { nonce: 9n }, { nonce: 9n }, { nonce: null }])).toBe(10n);
  });

  it("ignores live attempts the chain has already passed", () => {
    expect(deriveNextNonce(12n, [{ nonce: 3n }, { nonce: 11n }])).toBe(12n);
  });

  it("counts nonces reserved by builds the journal does not show yet", () => {
    expect(deriveNextNonce(7n, [{ nonce: 7n }], [8n, 9n])).toBe(10n);
  });
});

describe("nonceGaps", () => {
  it("finds the nonces below the highest held one that nothing holds", () => {
    expect(nonceGaps(5n, [8n, 6n, null])).toEqual([5n, 7n]);
    expect(nonceGaps(5n, [5n, 6n, 7n])).toEqual([]);
    expect(nonceGaps(5n, [])).toEqual([]);
    // Held nonces already below what the node counts are mined or pooled: no gap there.
    expect(nonceGaps(9n, [3n, 4n])).toEqual([]);
  });
});

describe("EvmNonceManager", () => {
  /** A manager over a node whose pending count is `count` (reads counted) and a journal of these live nonces. */
  function managerOf(count: () => bigint, live: bigint[] = []) {
    const reads = { pending: 0 };
    const client = {
      getTransactionCount: () => {
        reads.pending++;
        return Promise.resolve(Number(count()));
      },
    } as unknown as PublicClient;
    const journal = {
      liveAttempts: () => live.map((nonce) => ({ nonce })),
    } as unknown as JournalView;
    const manager = new EvmNonceManager({
      chain: "c",
      address: "0x00000000000000000000000000000000000000a1",
      client,
      journal,
    });
    return { manager, reads };
  }

  it("takes the pending count a build read beside its simulation, with no read of its own", async () => {
    let count = 4n;
    const { manager, reads } = managerOf(() => count);
    const early = manager.pendingNow();
    count = 6n; // another wallet's transactions arrive meanwhile: not the solver's, not its concern
    expect(await manager.withNextNonce((nonce) => Promise.resolve(nonce), early)).toBe(4n);
    expect(reads.pending).toBe(1);
    // The nonce handed out stays reserved: the next build, on the same early count, takes the one after.
    expect(await manager.withNextNonce((nonce) => Promise.resolve(nonce), Promise.resolve(4n))).toBe(5n);
  });

  it("never goes below what the journal holds live when the early count is behind it", async () => {
    const { manager } = managerOf(() => 3n, [3n, 4n]);
    expect(await manager.withNextNonce((nonce) => Promise.resolve(nonce), manager.pendingNow())).toBe(5n);
  });
});
