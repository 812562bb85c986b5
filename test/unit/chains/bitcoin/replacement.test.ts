import { networks, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import type { TxAttemptRef } from "../../../../src/chains/chain.js";
import { bitcoinHtlc } from "../../../../src/chains/bitcoin/htlc.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { bumpTransaction, ReplacementError } from "../../../../src/chains/bitcoin/replacement.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";

const key = BitcoinKey.fromHex("77".repeat(32));
// The replacement logic only signs; it never asks the backend or the journal for anything.
const wallet = new BitcoinWallet({
  chain: "bitcoin_regtest",
  key,
  network: networks.regtest,
  backend: { confirmedUnspent: () => Promise.reject(new Error("not used")) },
  journal: { liveAttempts: () => [], actionTxids: () => [] },
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

function bump(attempt: TxAttemptRef, target: bigint) {
  return bumpTransaction({
    kind: "fill",
    attempt,
    htlcs: [htlc],
    secrets: [null],
    targetRateSatVb: target,
    bounds,
    key,
    wallet,
  });
}

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
    return bumpTransaction({
      kind: "cancel",
      attempt,
      htlcs: [],
      secrets: [],
      targetRateSatVb: target,
      bounds: { ...bounds, feeRateCeilingSatVb: ceiling },
      key,
      wallet,
    });
  }

  it("spends the fill's inputs back to the wallet, out-paying it, so the HTLC is never funded", () => {
    const old = fillAttempt(39_000n, 2n);
    const replacement = cancel(old, 2n)!;
    const tx = replacement.tx;
    expect(tx.ins.map((i) => [Buffer.from(i.hash).reverse().toString("hex"), i.index])).toEqual([
      [input.txid, 1],
    ]);
    expect(tx.outs).toHaveLength(1);
    expect(Buffer.from(tx.outs[0]!.script).equals(Buffer.from(wallet.outputScript))).toBe(true);
    expect(tx.outs[0]!.value).toBe(100_000n - replacement.fee);
    const oldFee = 100_000n - 60_000n - 39_000n;
    expect(replacement.fee).toBeGreaterThanOrEqual(oldFee + BigInt(tx.virtualSize()));
    expect(replacement.feeRateSatVb).toBe(3n);
  });

  it("a cancel of a cancel is again everything back to the wallet at a higher rate", () => {
    const first = cancel(fillAttempt(39_000n, 2n), 2n)!;
    const attempt: TxAttemptRef = {
      ...fillAttempt(39_000n, 2n),
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
