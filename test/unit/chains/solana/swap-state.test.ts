import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { HtlcEvent } from "../../../../src/chains/solana/events.js";
import { eventMatches, type SwapEvent } from "../../../../src/chains/solana/swap-history.js";
import { historicSwapState, liveSwapState, lockId } from "../../../../src/chains/solana/swap-state.js";

const address = Keypair.generate().publicKey;
const redeemer = Keypair.generate().publicKey;
const refundee = Keypair.generate().publicKey;
const secret = new Uint8Array(32).fill(9);
const secretHash = new Uint8Array(createHash("sha256").update(secret).digest());
const terms = { redeemer, refundee, secretHash, swapAmount: 1_000n, timelock: 100n };
const common = { redeemer, refundee, swapAmount: 1_000n, timelock: 100n };

const initiated = (slot: bigint, signature: string): SwapEvent => ({
  signature,
  slot,
  blockTime: null,
  event: { name: "Initiated", ...common, secretHash, funder: refundee },
});
const closed = (
  name: "Redeemed" | "Refunded" | "InstantRefunded",
  slot: bigint,
  signature: string,
): SwapEvent => ({
  signature,
  slot,
  blockTime: null,
  event: name === "Redeemed" ? { name, ...common, secret } : { name, ...common, secretHash },
});

describe("a Solana swap account as locks", () => {
  it("a live account is one unspent lock, initiated at expiry − timelock, refundable after expiry", () => {
    const state = liveSwapState({ address, expirySlot: 600n, ...common, rentSponsor: refundee });
    expect(state.locks).toEqual([
      {
        id: lockId(address, 500n),
        fundingTx: null,
        value: 1_000n,
        height: 500n,
        refundableAtHeight: 601n,
        worthSpending: true,
        spend: null,
      },
    ]);
    expect(state.onChain).toEqual({
      initiator: refundee.toBase58(),
      redeemer: redeemer.toBase58(),
      timelock: 100n,
      amount: 1_000n,
    });
  });

  it("a closed account's history: each initiation its own lock, spent by the transaction that closed it", () => {
    const state = historicSwapState(address, [
      initiated(10n, "init-1"),
      closed("Refunded", 120n, "refund-1"),
      initiated(200n, "init-2"),
      closed("Redeemed", 210n, "redeem-2"),
    ]);
    expect(state.locks.map((l) => [l.id, l.height, l.spend])).toEqual([
      [lockId(address, 10n), 10n, { kind: "refund", txid: "refund-1", height: 120n }],
      [lockId(address, 200n), 200n, { kind: "redeem", txid: "redeem-2", height: 210n }],
    ]);
    expect(state.secret).toBe(Buffer.from(secret).toString("hex"));
  });

  it("an instant refund whose initiation lies beyond the history read is still a spent lock", () => {
    const state = historicSwapState(address, [closed("InstantRefunded", 50n, "ir")]);
    expect(state.locks).toEqual([
      expect.objectContaining({
        id: `${address.toBase58()}:?`,
        height: null,
        spend: { kind: "instant_refund", txid: "ir", height: 50n },
      }),
    ]);
    expect(state.secret).toBeNull();
  });

  it("an initiation with no close seen yet is unspent", () => {
    const state = historicSwapState(address, [initiated(10n, "init")]);
    expect(state.locks[0]?.spend).toBeNull();
  });

  it("counts only events of exactly these terms (and this mint)", () => {
    const ok: HtlcEvent = { name: "Redeemed", ...common, secret };
    expect(eventMatches(ok, terms, null)).toBe(true);
    expect(eventMatches({ ...ok, secret: new Uint8Array(32) }, terms, null)).toBe(false);
    expect(eventMatches({ ...ok, swapAmount: 999n }, terms, null)).toBe(false);
    expect(eventMatches({ ...ok, redeemer: refundee }, terms, null)).toBe(false);
    const mint = Keypair.generate().publicKey;
    expect(eventMatches({ ...ok, mint }, terms, mint)).toBe(true);
    expect(eventMatches({ ...ok, mint }, terms, Keypair.generate().publicKey)).toBe(false);
    expect(eventMatches(ok, terms, mint)).toBe(false);
  });
});
