import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { UNATTRIBUTED } from "../../../../src/chains/chain.js";
import {
  followedSwapState,
  liveSwapState,
  lockId,
  type LiveSwap,
} from "../../../../src/chains/solana/swap-state.js";

const address = Keypair.generate().publicKey;
const redeemer = Keypair.generate().publicKey;
const refundee = Keypair.generate().publicKey;
const secret = new Uint8Array(32).fill(9);
const secretHash = new Uint8Array(createHash("sha256").update(secret).digest());
const terms = { redeemer, refundee, secretHash, swapAmount: 1_000n, timelock: 100n };
const live = (initiatedAt: bigint, rentSponsor = refundee): LiveSwap => ({
  address,
  expirySlot: initiatedAt + 100n,
  redeemer,
  refundee,
  rentSponsor,
  swapAmount: 1_000n,
  timelock: 100n,
});
const fill = { signature: "fill-sig", slot: 500n };

describe("a Solana swap account as locks", () => {
  it("a live account of no known maker is one unspent lock, not the solver's, holding the address", () => {
    const state = liveSwapState(live(500n));
    expect(state.locks).toEqual([
      {
        id: lockId(address, 500n),
        fundingTx: UNATTRIBUTED,
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
    expect(state.occupied).toBe(true);
  });

  it("the solver's live fill is its one lock, made by its journaled transaction", () => {
    const state = followedSwapState(address, terms, fill, { alive: true }, live(500n));
    expect(state.locks).toEqual([
      expect.objectContaining({ id: lockId(address, 500n), fundingTx: "fill-sig", spend: null }),
    ]);
    expect(state.secret).toBeNull();
    expect(state.occupied).toBe(true);
  });

  it("a fill redeemed and the terms initiated again: the fill spent with the secret, the new one apart", () => {
    const close = { kind: "redeem" as const, signature: "redeem-sig", slot: 520n, blockTime: null, secret };
    const state = followedSwapState(address, terms, fill, { alive: false, close }, live(520n));
    expect(state.locks.map((l) => [l.id, l.fundingTx, l.spend])).toEqual([
      [lockId(address, 500n), "fill-sig", { kind: "redeem", txid: "redeem-sig", height: 520n }],
      [lockId(address, 520n), UNATTRIBUTED, null],
    ]);
    expect(state.secret).toBe(Buffer.from(secret).toString("hex"));
    expect(state.occupied).toBe(true);
  });

  it("a fill no longer held whose close is not found yet is spent, how not yet known", () => {
    const state = followedSwapState(address, terms, fill, { alive: false, close: null }, null);
    expect(state.locks.map((l) => l.spend)).toEqual([{ kind: "unknown", txid: null, height: null }]);
    expect(state.secret).toBeNull();
    expect(state.occupied).toBe(false);
  });

  it("a refunded fill carries no secret", () => {
    const close = {
      kind: "refund" as const,
      signature: "refund-sig",
      slot: 700n,
      blockTime: 5,
      secret: null,
    };
    const state = followedSwapState(address, terms, fill, { alive: false, close }, null);
    expect(state.locks[0]?.spend).toEqual({ kind: "refund", txid: "refund-sig", height: 700n });
    expect(state.secret).toBeNull();
  });
});
