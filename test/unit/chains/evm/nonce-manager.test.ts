import { describe, expect, it } from "vitest";
import { deriveNextNonce } from "../../../../src/chains/evm/nonce-manager.js";

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
