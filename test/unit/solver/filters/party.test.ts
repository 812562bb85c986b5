import { describe, expect, it } from "vitest";
import { sameParty } from "../../../../src/solver/filters/party.js";

describe("sameParty", () => {
  it("compares hex case-insensitively, with or without 0x", () => {
    expect(
      sameParty("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "70997970c51812dc3a010c7d01b50e0d17dc79c8"),
    ).toBe(true);
    expect(sameParty("AB".repeat(32), "ab".repeat(32))).toBe(true);
    expect(sameParty("0xab", "0xac")).toBe(false);
  });

  it("compares single-case bech32 addresses case-insensitively", () => {
    const address = "bcrt1pqqqsyqcyq5rqwzqfpg9scrgwpugpzysnzs23v9ccrydpk8qarc0q9g5gsq";
    expect(sameParty(address, address.toUpperCase())).toBe(true);
  });

  it("compares base58 (Solana) addresses exactly: another case spells another key", () => {
    const solver = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
    const caseChanged = "4ND1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
    expect(sameParty(solver, solver)).toBe(true);
    expect(sameParty(solver, caseChanged)).toBe(false);
  });
});
