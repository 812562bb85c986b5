import { crypto as btcCrypto, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "../../../../src/chains/bitcoin/bytes.js";
import { ecc } from "../../../../src/chains/bitcoin/ecc.js";
import { isPartialInstantRefund } from "../../../../src/chains/bitcoin/executor.js";
import { bitcoinHtlc, type BitcoinHtlc } from "../../../../src/chains/bitcoin/htlc.js";
import {
  buildRedeemTx,
  buildRefundTx,
  completeInstantRefund,
  signInstantRefund,
} from "../../../../src/chains/bitcoin/htlc-spend.js";
import {
  classifyHtlcSpend,
  leafSighash,
  SIGHASH_DEFAULT,
} from "../../../../src/chains/bitcoin/htlc-witness.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";

const solver = BitcoinKey.fromHex("11".repeat(32));
const user = BitcoinKey.fromHex("22".repeat(32));
const secret = hexToBytes("5e".repeat(32));
const secretHash = bytesToHex(btcCrypto.sha256(secret));
const fakeTxid = (n: number) => n.toString(16).padStart(64, "0");

function htlc(redeemer: BitcoinKey, initiator: BitcoinKey, timelock = 12): BitcoinHtlc {
  return bitcoinHtlc({
    initiatorKey: initiator.xOnlyHex,
    redeemerKey: redeemer.xOnlyHex,
    secretHash,
    timelock,
    network: "regtest",
  });
}

describe("redeem transactions", () => {
  it("sweep several HTLC outputs with exact fee and valid script-path signatures", () => {
    const a = htlc(solver, user);
    const b = htlc(solver, user, 144);
    const inputs = [
      { htlc: a, txid: fakeTxid(1), vout: 0, value: 50_000n, secret },
      { htlc: a, txid: fakeTxid(2), vout: 3, value: 25_000n, secret },
      { htlc: b, txid: fakeTxid(3), vout: 1, value: 10_000n, secret },
    ];
    const destination = solver.walletPayment(a.network).output;
    const { tx, fee } = buildRedeemTx(inputs, solver, destination, 3n);
    expect(fee).toBe(BigInt(tx.virtualSize()) * 3n);
    expect(tx.outs[0]?.value).toBe(85_000n - fee);
    const prevouts = inputs.map((i) => ({ script: i.htlc.outputScript, value: i.value }));
    inputs.forEach((input, index) => {
      const witness = tx.ins[index]!.witness;
      expect(witness).toHaveLength(4);
      expect(bytesToHex(witness[1]!)).toBe(bytesToHex(secret));
      const hash = leafSighash(tx, index, prevouts, input.htlc, "redeem", SIGHASH_DEFAULT);
      expect(ecc.verifySchnorr(hash, solver.xOnly, witness[0]!)).toBe(true);
      expect(classifyHtlcSpend(witness, input.htlc)).toEqual({ kind: "redeem", secret: bytesToHex(secret) });
      expect(classifyHtlcSpend(witness)).toEqual({ kind: "redeem", secret: bytesToHex(secret) });
    });
  });

  it("refuses a sweep whose value cannot pay the fee", () => {
    const a = htlc(solver, user);
    const inputs = [{ htlc: a, txid: fakeTxid(1), vout: 0, value: 500n, secret }];
    expect(() => buildRedeemTx(inputs, solver, a.outputScript, 5n)).toThrow(/does not cover the fee/);
  });
});

describe("refund transactions", () => {
  it("use version 2 and nSequence = timelock, and are told apart from redeems", () => {
    const a = htlc(user, solver, 144);
    const { tx, fee } = buildRefundTx(
      [{ htlc: a, txid: fakeTxid(9), vout: 0, value: 40_000n }],
      solver,
      a.outputScript,
      2n,
    );
    expect(tx.version).toBe(2);
    expect(tx.ins[0]!.sequence).toBe(144);
    expect(fee).toBe(BigInt(tx.virtualSize()) * 2n);
    expect(classifyHtlcSpend(tx.ins[0]!.witness, a)).toEqual({ kind: "refund" });
    expect(classifyHtlcSpend(tx.ins[0]!.witness)).toEqual({ kind: "unknown" });
  });
});

describe("instant refund", () => {
  it("is pre-signed SINGLE|ANYONECANPAY by the redeemer and completed by the initiator", () => {
    const source = htlc(solver, user, 144);
    const funding = [
      { txid: fakeTxid(5), vout: 0, value: 30_000n },
      { txid: fakeTxid(6), vout: 2, value: 20_000n },
    ];
    const refundAddress = user.walletPayment(source.network).address;
    const partial = signInstantRefund(source, funding, refundAddress, { key: solver, feeRateSatVb: 2n });
    const partialTx = Transaction.fromHex(partial.partialTxHex);
    expect(isPartialInstantRefund(partialTx)).toBe(true);
    expect(partialTx.outs).toHaveLength(2);
    expect(partial.redeemerSignatures.every((s) => s.length === 130 && s.endsWith("83"))).toBe(true);

    const fullHex = completeInstantRefund(partial.partialTxHex, source, [30_000n, 20_000n], { key: user });
    const full = Transaction.fromHex(fullHex);
    expect(full.getId()).toBe(partial.txid);
    expect(isPartialInstantRefund(full)).toBe(false);
    expect(BigInt(full.virtualSize()) * 2n).toBeLessThanOrEqual(partial.fee);
    const prevouts = funding.map((f) => ({ script: source.outputScript, value: f.value }));
    full.ins.forEach((input, index) => {
      const [redeemerSig, initiatorSig, leaf] = input.witness;
      expect(bytesToHex(leaf!)).toBe(bytesToHex(source.leaves.instantRefund.script));
      const single = leafSighash(full, index, prevouts, source, "instantRefund", 0x83);
      expect(ecc.verifySchnorr(single, solver.xOnly, redeemerSig!.subarray(0, 64))).toBe(true);
      const all = leafSighash(full, index, prevouts, source, "instantRefund", SIGHASH_DEFAULT);
      expect(ecc.verifySchnorr(all, user.xOnly, initiatorSig!)).toBe(true);
      expect(classifyHtlcSpend(input.witness, source)).toEqual({ kind: "instantRefund" });
    });
  });

  it("accepts initiator signatures made elsewhere", () => {
    const source = htlc(solver, user, 144);
    const funding = [{ txid: fakeTxid(7), vout: 1, value: 30_000n }];
    const partial = signInstantRefund(source, funding, user.walletPayment(source.network).address, {
      key: solver,
      feeRateSatVb: 1n,
    });
    const viaKey = completeInstantRefund(partial.partialTxHex, source, [30_000n], { key: user });
    const sig = Transaction.fromHex(viaKey).ins[0]!.witness[1]!;
    const viaSigs = completeInstantRefund(partial.partialTxHex, source, [30_000n], {
      signatures: [bytesToHex(sig)],
    });
    expect(viaSigs).toBe(viaKey);
    expect(() => completeInstantRefund(partial.partialTxHex, source, [], { key: user })).toThrow(/1 inputs/);
  });
});
