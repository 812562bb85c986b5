/**
 * Transactions that spend HTLC outputs through their script leaves: batched redeems, refunds after the
 * relative lock, and the two halves of an instant refund (the redeemer's pre-signature, then the
 * initiator's completion). Fees are computed from the exact witness sizes before signing.
 */
import { address as btcAddress, Transaction } from "bitcoinjs-lib";
import { bytesToHex, hexToBytes, txidToHash } from "./bytes.js";
import { feeForWeight } from "./fee.js";
import type { BitcoinHtlc, HtlcLeafName } from "./htlc.js";
import {
  instantRefundWitness,
  redeemWitness,
  refundWitness,
  signLeaf,
  SIGHASH_DEFAULT,
  SIGHASH_SINGLE_ANYONECANPAY,
  type PrevOut,
} from "./htlc-witness.js";
import type { BitcoinKey } from "./keys.js";
import {
  INPUT_BASE_WEIGHT,
  outputWeight,
  P2TR_DUST_LIMIT,
  txOverheadWeight,
  witnessWeight,
} from "./tx-size.js";
import { RBF_SEQUENCE } from "./wallet.js";

/** One funding output of an HTLC. */
export interface HtlcUtxo {
  htlc: BitcoinHtlc;
  txid: string;
  vout: number;
  value: bigint;
}

export interface RedeemInput extends HtlcUtxo {
  secret: Uint8Array;
}

export class HtlcSpendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HtlcSpendError";
  }
}

const SIG = 64;

/** Weight of one input spending an HTLC output through the redeem leaf (32-byte secret) or the refund leaf. */
export function htlcInputWeight(htlc: BitcoinHtlc, leaf: "redeem" | "refund"): number {
  return leafInputWeight(htlc, leaf, leaf === "redeem" ? [SIG, 32] : [SIG]);
}

function leafInputWeight(htlc: BitcoinHtlc, leaf: HtlcLeafName, stackItems: number[]): number {
  return (
    INPUT_BASE_WEIGHT +
    witnessWeight([...stackItems, htlc.leaves[leaf].script.length, htlc.controlBlock(leaf).length])
  );
}

export function redeemInputWeight(input: RedeemInput): number {
  return leafInputWeight(input.htlc, "redeem", [SIG, input.secret.length]);
}

export function refundInputWeight(input: HtlcUtxo): number {
  return leafInputWeight(input.htlc, "refund", [SIG]);
}

function prevoutsOf(inputs: HtlcUtxo[]): PrevOut[] {
  return inputs.map((i) => ({ script: i.htlc.outputScript, value: i.value }));
}

function sumValues(inputs: HtlcUtxo[]): bigint {
  return inputs.reduce((s, i) => s + i.value, 0n);
}

/** Sweeps inputs into one output after paying `weight` at the rate; refuses when the rest is dust. */
function sweepValue(
  inputs: HtlcUtxo[],
  weight: number,
  feeRateSatVb: bigint,
): { value: bigint; fee: bigint } {
  const fee = feeForWeight(weight, feeRateSatVb);
  const value = sumValues(inputs) - fee;
  if (value < P2TR_DUST_LIMIT) {
    throw new HtlcSpendError(
      `HTLC value ${sumValues(inputs)} sat does not cover the fee ${fee} sat plus dust`,
    );
  }
  return { value, fee };
}

export interface SweepResult {
  tx: Transaction;
  fee: bigint;
}

/** One transaction redeeming every given funding output (of one or many HTLCs) to `destination`. */
export function buildRedeemTx(
  inputs: RedeemInput[],
  key: BitcoinKey,
  destination: Uint8Array,
  feeRateSatVb: bigint,
): SweepResult {
  if (inputs.length === 0) throw new HtlcSpendError("a redeem needs at least one funding output");
  const weight =
    txOverheadWeight(inputs.length, 1) +
    inputs.reduce((w, i) => w + redeemInputWeight(i), 0) +
    outputWeight(destination.length);
  const { value, fee } = sweepValue(inputs, weight, feeRateSatVb);
  const tx = new Transaction();
  tx.version = 2;
  for (const input of inputs) tx.addInput(txidToHash(input.txid), input.vout, RBF_SEQUENCE);
  tx.addOutput(destination, value);
  const prevouts = prevoutsOf(inputs);
  inputs.forEach((input, index) => {
    const sig = signLeaf(key, tx, index, prevouts, input.htlc, "redeem");
    tx.setWitness(index, redeemWitness(input.htlc, sig, input.secret));
  });
  return { tx, fee };
}

/** Refund after the lock: version 2, each input's nSequence = its HTLC's timelock (BIP-68/112). */
export function buildRefundTx(
  inputs: HtlcUtxo[],
  key: BitcoinKey,
  destination: Uint8Array,
  feeRateSatVb: bigint,
): SweepResult {
  if (inputs.length === 0) throw new HtlcSpendError("a refund needs at least one funding output");
  const weight =
    txOverheadWeight(inputs.length, 1) +
    inputs.reduce((w, i) => w + refundInputWeight(i), 0) +
    outputWeight(destination.length);
  const { value, fee } = sweepValue(inputs, weight, feeRateSatVb);
  const tx = new Transaction();
  tx.version = 2;
  for (const input of inputs) tx.addInput(txidToHash(input.txid), input.vout, input.htlc.timelock);
  tx.addOutput(destination, value);
  const prevouts = prevoutsOf(inputs);
  inputs.forEach((input, index) => {
    const sig = signLeaf(key, tx, index, prevouts, input.htlc, "refund");
    tx.setWitness(index, refundWitness(input.htlc, sig));
  });
  return { tx, fee };
}

export interface InstantRefundSignatures {
  /** The transaction with each input's witness holding only the redeemer's signature. */
  partialTxHex: string;
  /** Final txid: witnesses do not change it. */
  txid: string;
  /** Redeemer signatures (65 bytes, SIGHASH_SINGLE|ANYONECANPAY), hex, one per input in order. */
  redeemerSignatures: string[];
  fee: bigint;
  feeRateSatVb: bigint;
  /** The funding value of each input, in order. */
  inputValues: bigint[];
}

export interface InstantRefundOptions {
  /** The redeemer's key (the solver on a source it declines). */
  key: BitcoinKey;
  feeRateSatVb: bigint;
}

/**
 * The redeemer's half of an instant refund: one output per funding input, each paying the refund
 * address that input's value minus its share of the fee, each input signed SIGHASH_SINGLE|ANYONECANPAY
 * so the signature binds only its own input and output. The initiator completes it later.
 */
export function signInstantRefund(
  htlc: BitcoinHtlc,
  fundingUtxos: Omit<HtlcUtxo, "htlc">[],
  refundAddress: string,
  options: InstantRefundOptions,
): InstantRefundSignatures {
  if (fundingUtxos.length === 0)
    throw new HtlcSpendError("an instant refund needs at least one funding output");
  const refundScript = btcAddress.toOutputScript(refundAddress, htlc.network);
  const perInput =
    INPUT_BASE_WEIGHT +
    witnessWeight([
      SIG + 1,
      SIG + 1,
      htlc.leaves.instantRefund.script.length,
      htlc.controlBlock("instantRefund").length,
    ]) +
    outputWeight(refundScript.length);
  const n = BigInt(fundingUtxos.length);
  const totalFee = feeForWeight(
    txOverheadWeight(fundingUtxos.length, fundingUtxos.length) + perInput * fundingUtxos.length,
    options.feeRateSatVb,
  );
  const share = (totalFee + n - 1n) / n;
  const tx = new Transaction();
  tx.version = 2;
  for (const utxo of fundingUtxos) {
    const value = utxo.value - share;
    if (value < P2TR_DUST_LIMIT) {
      throw new HtlcSpendError(
        `funding output ${utxo.txid}:${utxo.vout} of ${utxo.value} sat cannot pay its fee share ${share} sat`,
      );
    }
    tx.addInput(txidToHash(utxo.txid), utxo.vout, RBF_SEQUENCE);
    tx.addOutput(refundScript, value);
  }
  const prevouts = fundingUtxos.map((u) => ({ script: htlc.outputScript, value: u.value }));
  const signatures = fundingUtxos.map((_, index) => {
    const sig = signLeaf(
      options.key,
      tx,
      index,
      prevouts,
      htlc,
      "instantRefund",
      SIGHASH_SINGLE_ANYONECANPAY,
    );
    tx.setWitness(index, [sig]);
    return bytesToHex(sig);
  });
  return {
    partialTxHex: tx.toHex(),
    txid: tx.getId(),
    redeemerSignatures: signatures,
    fee: share * n,
    feeRateSatVb: options.feeRateSatVb,
    inputValues: fundingUtxos.map((u) => u.value),
  };
}

export type InitiatorSigner =
  /** The initiator's key: signs each input (SIGHASH_DEFAULT unless `hashType` says otherwise). */
  | { key: BitcoinKey; hashType?: number }
  /** Signatures made elsewhere, hex, one per input. */
  | { signatures: string[] };

/**
 * Adds the initiator's signature to a partial instant refund and assembles the final witnesses
 * `[redeemerSig, initiatorSig, leaf, control]`. Returns the transaction hex, ready to broadcast.
 */
export function completeInstantRefund(
  partialTxHex: string,
  htlc: BitcoinHtlc,
  fundingValues: bigint[],
  initiator: InitiatorSigner,
): string {
  const tx = Transaction.fromHex(partialTxHex);
  if (fundingValues.length !== tx.ins.length) {
    throw new HtlcSpendError(
      `instant refund has ${tx.ins.length} inputs but ${fundingValues.length} funding values were given`,
    );
  }
  const prevouts = fundingValues.map((value) => ({ script: htlc.outputScript, value }));
  const redeemerSigs = tx.ins.map((input, index) => {
    const sig = input.witness[0];
    if (sig === undefined)
      throw new HtlcSpendError(`instant refund input ${index} carries no redeemer signature`);
    return sig;
  });
  redeemerSigs.forEach((redeemerSig, index) => {
    const initiatorSig =
      "key" in initiator
        ? signLeaf(
            initiator.key,
            tx,
            index,
            prevouts,
            htlc,
            "instantRefund",
            initiator.hashType ?? SIGHASH_DEFAULT,
          )
        : hexToBytes(initiator.signatures[index] ?? "", `initiator signature ${index}`);
    if (initiatorSig.length === 0) throw new HtlcSpendError(`initiator signature ${index} is missing`);
    tx.setWitness(index, instantRefundWitness(htlc, redeemerSig, initiatorSig));
  });
  return tx.toHex();
}
