/**
 * Completing a solver's instant refund for the user (pure). The solver declines a funded source and
 * hands over a transaction whose inputs carry its redeemer signatures (SIGHASH_SINGLE|ANYONECANPAY).
 * Before the service adds the initiator's signature, the transaction must spend exactly the HTLC's
 * funding outputs, pay each input's value (less a fee within the cap) back to the refund address, and
 * carry valid redeemer signatures, so the completed transaction is one the user can broadcast.
 */
import { address as btcAddress, Transaction } from "bitcoinjs-lib";
import type { FundingOutput } from "htlc-solver/chains/bitcoin/backend.js";
import { equalBytes, hashToTxid } from "htlc-solver/chains/bitcoin/bytes.js";
import { ecc } from "htlc-solver/chains/bitcoin/ecc.js";
import type { BitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import { completeInstantRefund } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { leafSighash, SIGHASH_SINGLE_ANYONECANPAY } from "htlc-solver/chains/bitcoin/htlc-witness.js";
import type { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";

/** The partial transaction does not match the HTLC or the order; the message names what differs. */
export class InstantRefundMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InstantRefundMismatchError";
  }
}

export interface InstantRefundInputs {
  partialTxHex: string;
  htlc: BitcoinHtlc;
  /** Every output funding the HTLC, all unspent. */
  funding: FundingOutput[];
  refundAddress: string;
  /** The HTLC's initiator key (the service's per-order key). */
  initiatorKey: BitcoinKey;
  maxFeeRateSatVb: bigint;
}

export function completeUserInstantRefund(input: InstantRefundInputs): { txid: string; txHex: string } {
  const tx = parsePartial(input.partialTxHex);
  const values = inputValues(tx, input.funding);
  checkOutputs(tx, values, input.htlc, input.refundAddress);
  checkRedeemerSignatures(tx, values, input.htlc);
  const txHex = completeInstantRefund(input.partialTxHex, input.htlc, values, { key: input.initiatorKey });
  const complete = Transaction.fromHex(txHex);
  const fee = values.reduce((s, v) => s + v, 0n) - complete.outs.reduce((s, o) => s + o.value, 0n);
  const cap = BigInt(complete.virtualSize()) * input.maxFeeRateSatVb;
  if (fee > cap) {
    throw new InstantRefundMismatchError(
      `partial_tx pays a fee of ${fee} sat, above the cap of ${cap} sat (${input.maxFeeRateSatVb} sat/vB)`,
    );
  }
  return { txid: complete.getId(), txHex };
}

function parsePartial(hex: string): Transaction {
  try {
    return Transaction.fromHex(hex);
  } catch (error) {
    throw new InstantRefundMismatchError(
      `partial_tx is not a Bitcoin transaction: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The value of each input's prevout; every funding output must be spent exactly once, nothing else. */
function inputValues(tx: Transaction, funding: FundingOutput[]): bigint[] {
  const byOutpoint = new Map(funding.map((o) => [`${o.txid}:${o.vout}`, o.value]));
  const seen = new Set<string>();
  const values = tx.ins.map((input, index) => {
    const outpoint = `${hashToTxid(input.hash)}:${input.index}`;
    const value = byOutpoint.get(outpoint);
    if (value === undefined || seen.has(outpoint)) {
      throw new InstantRefundMismatchError(
        `partial_tx input ${index} spends ${outpoint}, which is not an unspent funding output of the HTLC`,
      );
    }
    seen.add(outpoint);
    return value;
  });
  if (seen.size !== byOutpoint.size) {
    const missing = [...byOutpoint.keys()].filter((key) => !seen.has(key));
    throw new InstantRefundMismatchError(
      `partial_tx leaves funding outputs of the HTLC unspent: ${missing.join(", ")}`,
    );
  }
  return values;
}

/** One output per input (SIGHASH_SINGLE pairs them), each paying the refund address at most its input. */
function checkOutputs(tx: Transaction, values: bigint[], htlc: BitcoinHtlc, refundAddress: string): void {
  if (tx.outs.length !== tx.ins.length) {
    throw new InstantRefundMismatchError(
      `partial_tx has ${tx.ins.length} inputs but ${tx.outs.length} outputs; it needs one output per input`,
    );
  }
  const refundScript = btcAddress.toOutputScript(refundAddress, htlc.network);
  tx.outs.forEach((output, index) => {
    if (!equalBytes(output.script, refundScript)) {
      throw new InstantRefundMismatchError(
        `partial_tx output ${index} does not pay the refund address ${refundAddress}`,
      );
    }
    const value = values[index] ?? 0n;
    if (output.value <= 0n || output.value > value) {
      throw new InstantRefundMismatchError(
        `partial_tx output ${index} pays ${output.value} sat from an input of ${value} sat`,
      );
    }
  });
}

function checkRedeemerSignatures(tx: Transaction, values: bigint[], htlc: BitcoinHtlc): void {
  const prevouts = values.map((value) => ({ script: htlc.outputScript, value }));
  tx.ins.forEach((input, index) => {
    const sig = input.witness.length === 1 ? input.witness[0] : undefined;
    if (sig === undefined || sig.length !== 65 || sig[64] !== SIGHASH_SINGLE_ANYONECANPAY) {
      throw new InstantRefundMismatchError(
        `partial_tx input ${index} must carry exactly the redeemer's SIGHASH_SINGLE|ANYONECANPAY signature`,
      );
    }
    const hash = leafSighash(tx, index, prevouts, htlc, "instantRefund", SIGHASH_SINGLE_ANYONECANPAY);
    if (!ecc.verifySchnorr(hash, htlc.redeemerKey, sig.subarray(0, 64))) {
      throw new InstantRefundMismatchError(
        `partial_tx input ${index} carries a signature that is not the HTLC redeemer's`,
      );
    }
  });
}
