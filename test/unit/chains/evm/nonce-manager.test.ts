import { describe, expect, it } from "vitest";
import { deriveNextNonce, nonceGaps } from "../../../../src/chains/evm/nonce-manager.js";

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
