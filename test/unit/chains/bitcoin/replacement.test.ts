import { crypto as btcCrypto, networks, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import type { TxAttemptRef } from "../../../../src/chains/chain.js";
import { bytesToHex } from "../../../../src/chains/bitcoin/bytes.js";
import { bitcoinHtlc } from "../../../../src/chains/bitcoin/htlc.js";
import { buildRedeemTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import type { MempoolDescendants } from "../../../../src/chains/bitcoin/backend.js";
import {
  bumpTransaction,
  ReplacementError,
  type BumpOutcome,
  type Replacement,
} from "../../../../src/chains/bitcoin/replacement.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";

const key = BitcoinKey.fromHex("77".repeat(32));
// The replacement logic only signs; it never asks the backend or the journal for anything.
const wallet = new BitcoinWallet({
  chain: "bitcoin_regtest",
  key,
  network: networks.regtest,
  backend: { confirmedUnspent: () => Promise.reject(new Error("not used")) },
  journal: { liveAttempts: () => [], actionTxids: () => [], journaledTx: () => null },
});
const htlc = bitcoinHtlc({
  initiatorKey: key.xOnlyHex,
  redeemerKey: BitcoinKey.fromHex("88".repeat(32)).xOnlyHex,
  secretHash: "99".repeat(32),
  timelock: 12,
  network: "regtest",
});
const bounds = { feeRateFloorSatVb: 1, feeRateCeilingSatVb: 10 };
const input = { txid: "ab".repeat(32), vout: 1, value: 100_000n };

/** The change of a 154 vB fill that paid exactly 2 sat/vB. */
const PAID_AT_2 = 100_000n - 60_000n - 154n * 2n;

function fillAttempt(change: bigint, rate: bigint): TxAttemptRef {
  const outputs = [{ script: htlc.outputScript, value: 60_000n }];
  if (change > 0n) outputs.push({ script: wallet.outputScript, value: change });
  const tx = wallet.signPayment([input], outputs);
  const terms = { family: "bitcoin" as const, feeRateSatVb: rate, feeSats: 0n, inputValues: [input.value] };
  return {
    id: 1,
    chain: "bitcoin_regtest",
    txHash: tx.getId(),
    raw: tx.toHex(),
    nonce: null,
    terms,
    createdAtMs: 0,
  };
}

/** No in-mempool descendants: the replacement evicts the original alone. */
const alone: MempoolDescendants = { count: 0, vsize: 0, feeSats: 0n };

/** The replacement, or null where none can be signed (the reason is checked where it matters). */
function signed(outcome: BumpOutcome): Replacement | null {
  return "replacement" in outcome ? outcome.replacement : null;
}

function bumpOutcome(attempt: TxAttemptRef, target: bigint, descendants = alone): BumpOutcome {
  return bumpTransaction({
    kind: "fill",
    attempt,
    htlcs: [htlc],
    secrets: [null],
    targetRateSatVb: target,
    bounds,
    descendants,
    key,
    wallet,
  });
}

const bump = (attempt: TxAttemptRef, target: bigint, descendants = alone) =>
  signed(bumpOutcome(attempt, target, descendants));

describe("bumpTransaction for a fill", () => {
  it("keeps inputs and payment, and takes the higher fee from the change", () => {
    const old = fillAttempt(100_000n - 60_000n - 154n * 2n, 2n);
    const replacement = bump(old, 2n)!;
    expect(replacement.feeRateSatVb).toBe(3n);
    const tx = replacement.tx;
    expect(tx.ins.map((i) => i.index)).toEqual([1]);
    expect(tx.outs[0]!.value).toBe(60_000n);
    expect(tx.virtualSize()).toBe(154);
    expect(replacement.fee).toBe(154n * 3n);
    expect(tx.outs[1]!.value).toBe(100_000n - 60_000n - 154n * 3n);
    expect(Transaction.fromHex(old.raw).getId()).not.toBe(tx.getId());
  });

  it("follows a target above the minimum step, capped at the ceiling", () => {
    const old = fillAttempt(39_000n, 2n);
    expect(bump(old, 7n)!.feeRateSatVb).toBe(7n);
    expect(bump(old, 50n)!.feeRateSatVb).toBe(10n);
    expect(bump(fillAttempt(39_000n, 10n), 50n)).toBeNull();
  });

  it("gives up when there is no change to pay a higher fee from", () => {
    // All 40_000 sat above the payment already went to the fee: a replacement cannot pay more.
    expect(bump(fillAttempt(0n, 2n), 2n)).toBeNull();
  });

  it("needs the journaled Bitcoin terms, with a value for each input", () => {
    const old = fillAttempt(39_000n, 2n);
    const evm = { family: "evm" as const, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gas: 1n };
    expect(() => bump({ ...old, terms: evm }, 2n)).toThrow(ReplacementError);
    const twoValues = { family: "bitcoin" as const, feeRateSatVb: 2n, feeSats: 0n, inputValues: [1n, 2n] };
    expect(() => bump({ ...old, terms: twoValues }, 2n)).toThrow(/2 input values for 1 inputs/);
  });
});

describe("bumpTransaction for a cancel", () => {
  function cancel(attempt: TxAttemptRef, target: bigint, ceiling = 10) {
    return signed(
      bumpTransaction({
        kind: "cancel",
        attempt,
        htlcs: [],
        secrets: [],
        targetRateSatVb: target,
        bounds: { ...bounds, feeRateCeilingSatVb: ceiling },
        descendants: alone,
        key,
        wallet,
      }),
    );
  }

  it("spends the fill's inputs back to the wallet, out-paying it, so the HTLC is never funded", () => {
    const old = fillAttempt(PAID_AT_2, 2n);
    const replacement = cancel(old, 2n)!;
    const tx = replacement.tx;
    expect(tx.ins.map((i) => [Buffer.from(i.hash).reverse().toString("hex"), i.index])).toEqual([
      [input.txid, 1],
    ]);
    expect(tx.outs).toHaveLength(1);
    expect(Buffer.from(tx.outs[0]!.script).equals(Buffer.from(wallet.outputScript))).toBe(true);
    expect(tx.outs[0]!.value).toBe(100_000n - replacement.fee);
    const oldFee = 100_000n - 60_000n - PAID_AT_2;
    expect(replacement.fee).toBeGreaterThanOrEqual(oldFee + BigInt(tx.virtualSize()));
    expect(replacement.feeRateSatVb).toBe(3n);
  });

  it("a cancel of a cancel is again everything back to the wallet at a higher rate", () => {
    const first = cancel(fillAttempt(PAID_AT_2, 2n), 2n)!;
    const attempt: TxAttemptRef = {
      ...fillAttempt(PAID_AT_2, 2n),
      txHash: first.tx.getId(),
      raw: first.tx.toHex(),
      terms: {
        family: "bitcoin",
        feeRateSatVb: first.feeRateSatVb,
        feeSats: first.fee,
        inputValues: [input.value],
      },
    };
    const second = cancel(attempt, 2n)!;
    expect(second.feeRateSatVb).toBe(first.feeRateSatVb + 1n);
    expect(second.tx.outs).toHaveLength(1);
    expect(second.fee).toBeGreaterThan(first.fee);
  });

  it("is null above its ceiling, and refuses a transaction that is not the wallet's own payment", () => {
    expect(cancel(fillAttempt(39_000n, 10n), 50n, 10)).toBeNull();
    const redeemLike = Transaction.fromHex(fillAttempt(39_000n, 2n).raw);
    redeemLike.ins[0]!.witness = [Buffer.alloc(64), Buffer.alloc(40), Buffer.alloc(33)];
    const attempt = { ...fillAttempt(39_000n, 2n), raw: redeemLike.toHex() };
    expect(() => cancel(attempt, 2n)).toThrow(/wallet's own outputs/);
  });
});

describe("bumpTransaction over in-mempool descendants (BIP-125 rules 3 and 4)", () => {
  // The fill of PAID_AT_2 pays 308 sat for 154 vB; its replacement keeps that size.
  const child: MempoolDescendants = { count: 1, vsize: 150, feeSats: 300n };

  it("pays the original's fee, every descendant's and 1 sat/vB of its own size, from the change", () => {
    const replacement = bump(fillAttempt(PAID_AT_2, 2n), 2n, child)!;
    expect(replacement.tx.virtualSize()).toBe(154);
    // 3 sat/vB would be 462 sat: too little to evict 308 + 300 sat.
    expect(replacement.fee).toBe(308n + 300n + 154n);
    expect(replacement.tx.outs[1]!.value).toBe(100_000n - 60_000n - 762n);
    expect(replacement.feeRateSatVb).toBe(762n / 154n);
  });

  it("refuses, saying why, when that is more than the ceiling allows for its size", () => {
    const pinned: MempoolDescendants = { count: 2, vsize: 40_000, feeSats: 1_500n };
    const outcome = bumpOutcome(fillAttempt(PAID_AT_2, 2n), 2n, pinned);
    expect(outcome).toEqual({
      refused:
        "replacing it evicts its own fee (308 sat) and what its 2 in-mempool descendant(s) pay (1500 sat for " +
        "40000 vB): a replacement of 154 vB must pay at least 1962 sat, more than the 1540 sat its ceiling " +
        "of 10 sat/vB allows",
    });
  });

  it("a cancel, allowed twice the ceiling, evicts what a bump under the ceiling cannot", () => {
    const pinned: MempoolDescendants = { count: 2, vsize: 40_000, feeSats: 1_500n };
    const attempt = fillAttempt(PAID_AT_2, 2n);
    const cancel = (ceiling: number) =>
      bumpTransaction({
        kind: "cancel",
        attempt,
        htlcs: [],
        secrets: [],
        targetRateSatVb: 2n,
        bounds: { ...bounds, feeRateCeilingSatVb: ceiling },
        descendants: pinned,
        key,
        wallet,
      });
    expect(cancel(10)).toMatchObject({ refused: expect.stringContaining("at least 1919 sat") });
    const replacement = signed(cancel(20))!;
    expect(replacement.tx.virtualSize()).toBe(111);
    expect(replacement.fee).toBe(308n + 1_500n + 111n);
    expect(replacement.tx.outs.map((o) => o.value)).toEqual([100_000n - 1_919n]);
  });

  it("raises a sweep's rate until it pays for what it evicts", () => {
    const secret = Buffer.alloc(32, 5);
    const redeemed = bitcoinHtlc({
      initiatorKey: BitcoinKey.fromHex("88".repeat(32)).xOnlyHex,
      redeemerKey: key.xOnlyHex,
      secretHash: bytesToHex(btcCrypto.sha256(secret)),
      timelock: 144,
      network: "regtest",
    });
    const utxo = { htlc: redeemed, txid: "cd".repeat(32), vout: 0, value: 80_000n, secret };
    const original = buildRedeemTx([utxo], key, wallet.outputScript, 2n);
    const attempt: TxAttemptRef = {
      ...fillAttempt(PAID_AT_2, 2n),
      txHash: original.tx.getId(),
      raw: original.tx.toHex(),
      terms: { family: "bitcoin", feeRateSatVb: 2n, feeSats: original.fee, inputValues: [80_000n] },
    };
    const vsize = BigInt(original.tx.virtualSize());
    const outcome = bumpTransaction({
      kind: "redeem",
      attempt,
      htlcs: [redeemed],
      secrets: [secret],
      targetRateSatVb: 2n,
      bounds,
      descendants: { count: 1, vsize: 111, feeSats: 500n },
      key,
      wallet,
    });
    const replacement = signed(outcome)!;
    const floor = original.fee + 500n + vsize;
    const rate = (floor + vsize - 1n) / vsize;
    expect(replacement.feeRateSatVb).toBe(rate);
    expect(replacement.fee).toBe(rate * vsize);
    expect(replacement.fee).toBeGreaterThanOrEqual(floor);
    expect(replacement.tx.outs[0]!.value).toBe(80_000n - replacement.fee);
  });
});
