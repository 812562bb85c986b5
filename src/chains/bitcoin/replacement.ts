/**
 * Replace-by-fee for the solver's own transactions: the same inputs at a higher rate, so the
 * replacement conflicts with (and evicts) the original and every in-mempool descendant of it. BIP-125
 * asks for at least the fees of all it evicts, plus the incremental relay fee (1 sat/vB) for the
 * replacement's own size; the rate rises by at least 1 sat/vB. That fee must fit under the ceiling the
 * request brings (a cancel's is twice the chain's). Everything else needed is in the journaled attempt
 * (raw transaction, rate, input values) and the actions, so a bump after a restart needs no lookups
 * beyond the descendants.
 */
import { Transaction } from "bitcoinjs-lib";
import type { TxAttemptRef } from "../chain.js";
import type { MempoolDescendants } from "./backend.js";
import { equalBytes, hashToTxid } from "./bytes.js";
import {
  boundsOf,
  bumpedFeeRate,
  feeForWeight,
  rateForFee,
  replacementFeeFloor,
  type FeeRateBounds,
} from "./fee.js";
import type { BitcoinHtlc, HtlcLeafName } from "./htlc.js";
import { buildRedeemTx, buildRefundTx, type HtlcUtxo } from "./htlc-spend.js";
import type { BitcoinKey } from "./keys.js";
import {
  P2TR_DUST_LIMIT,
  P2TR_KEYPATH_INPUT_WEIGHT,
  P2TR_OUTPUT_WEIGHT,
  outputWeight,
  txOverheadWeight,
  vsizeOfWeight,
} from "./tx-size.js";
import type { BitcoinWallet } from "./wallet.js";

export interface BumpRequest {
  /** `cancel`: the same wallet inputs, every output back to the wallet (a fill that must not land). */
  kind: "fill" | "redeem" | "refund" | "cancel";
  attempt: TxAttemptRef;
  /** The HTLC of each action (for redeems and refunds, the inputs are matched to them by leaf). */
  htlcs: BitcoinHtlc[];
  /** The secret of each action, for redeems. */
  secrets: (Uint8Array | null)[];
  targetRateSatVb: bigint;
  bounds: FeeRateBounds;
  /** The original's in-mempool descendants: the replacement evicts them too, and must out-pay them. */
  descendants: MempoolDescendants;
  key: BitcoinKey;
  wallet: BitcoinWallet;
}

export interface Replacement {
  tx: Transaction;
  fee: bigint;
  feeRateSatVb: bigint;
  inputValues: bigint[];
}

/** A replacement, or why none can be signed (for the log). */
export type BumpOutcome = { replacement: Replacement } | { refused: string };

interface OldTx {
  tx: Transaction;
  rate: bigint;
  fee: bigint;
  inputValues: bigint[];
}

/** What a replacement must pay for a given size, at its rate and for what it evicts, under its ceiling. */
type FeeFor = (weight: number) => { fee: bigint } | { refused: string };

export class ReplacementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplacementError";
  }
}

function readAttempt(attempt: TxAttemptRef): OldTx {
  const tx = Transaction.fromHex(attempt.raw);
  if (attempt.terms.family !== "bitcoin") {
    throw new ReplacementError(`attempt ${attempt.id} (${attempt.txHash}) is not a Bitcoin transaction`);
  }
  const { inputValues, feeRateSatVb } = attempt.terms;
  if (inputValues.length !== tx.ins.length) {
    throw new ReplacementError(
      `attempt ${attempt.id} lists ${inputValues.length} input values for ${tx.ins.length} inputs`,
    );
  }
  const inTotal = inputValues.reduce((s, v) => s + v, 0n);
  const outTotal = tx.outs.reduce((s, o) => s + o.value, 0n);
  return { tx, rate: feeRateSatVb, fee: inTotal - outTotal, inputValues };
}

/** A replacement at a higher rate that pays for everything it evicts, or why there is none. */
export function bumpTransaction(request: BumpRequest): BumpOutcome {
  const old = readAttempt(request.attempt);
  const { ceiling } = boundsOf(request.bounds);
  const rate = bumpedFeeRate(old.rate, request.targetRateSatVb, request.bounds);
  if (rate === null)
    return { refused: `it pays ${old.rate} sat/vB already, the ceiling of ${ceiling} sat/vB` };
  const evicted = old.fee + request.descendants.feeSats;
  const feeFor: FeeFor = (weight) => {
    const vsize = vsizeOfWeight(weight);
    const floor = replacementFeeFloor(evicted, vsize);
    const fee = maxBig(feeForWeight(weight, rate), floor);
    const allowed = ceiling * BigInt(vsize);
    if (fee <= allowed) return { fee };
    const { count, feeSats, vsize: descendantsVsize } = request.descendants;
    return {
      refused:
        `replacing it evicts its own fee (${old.fee} sat) and what its ${count} in-mempool descendant(s) pay ` +
        `(${feeSats} sat for ${descendantsVsize} vB): a replacement of ${vsize} vB must pay at least ${floor} sat, ` +
        `more than the ${allowed} sat its ceiling of ${ceiling} sat/vB allows`,
    };
  };
  const outcome =
    request.kind === "fill" || request.kind === "cancel"
      ? bumpPayment(old, rate, feeFor, request.wallet, request.kind === "fill")
      : bumpSweep(old, rate, feeFor, request);
  if ("refused" in outcome) return outcome;
  // BIP-125 rules 3 and 4 on the signed size: a replacement short of them would only be refused.
  const { tx, fee } = outcome.replacement;
  const floor = replacementFeeFloor(evicted, tx.virtualSize());
  if (fee < floor)
    return { refused: `its replacement would pay ${fee} sat, below the ${floor} sat BIP-125 asks` };
  return outcome;
}

/**
 * A wallet payment: same inputs and payment outputs, the change reduced (or dropped when it turns dust).
 * Without `keepPayments` everything goes back to the wallet: the payment is cancelled.
 */
function bumpPayment(
  old: OldTx,
  rate: bigint,
  feeFor: FeeFor,
  wallet: BitcoinWallet,
  keepPayments: boolean,
): BumpOutcome {
  // Only the wallet's own key-path inputs (one witness element) can be signed again by the wallet.
  if (old.tx.ins.some((input) => input.witness.length !== 1)) {
    throw new ReplacementError("only a payment from the wallet's own outputs can be replaced by the wallet");
  }
  const inputs = old.tx.ins.map((input, index) => ({
    txid: hashToTxid(input.hash),
    vout: input.index,
    value: old.inputValues[index] ?? 0n,
  }));
  const payments = keepPayments ? old.tx.outs.filter((o) => !equalBytes(o.script, wallet.outputScript)) : [];
  const inTotal = old.inputValues.reduce((s, v) => s + v, 0n);
  const payTotal = payments.reduce((s, o) => s + o.value, 0n);
  const baseWeight =
    txOverheadWeight(inputs.length, payments.length + 1) +
    inputs.length * P2TR_KEYPATH_INPUT_WEIGHT +
    payments.reduce((w, o) => w + outputWeight(o.script.length), 0);
  const withChange = feeFor(baseWeight + P2TR_OUTPUT_WEIGHT);
  if ("refused" in withChange) return withChange;
  const change = inTotal - payTotal - withChange.fee;
  const outputs = payments.map((o) => ({ script: o.script, value: o.value }));
  if (change >= P2TR_DUST_LIMIT) outputs.push({ script: wallet.outputScript, value: change });
  else {
    const without = feeFor(baseWeight);
    if ("refused" in without) return without;
    // A cancel without an output would move nothing anywhere: no valid transaction.
    if (outputs.length === 0 || inTotal - payTotal < without.fee) {
      return { refused: `its wallet inputs (${inTotal} sat) cannot pay the higher fee` };
    }
  }
  const tx = wallet.signPayment(inputs, outputs);
  const outTotal = outputs.reduce((s, o) => s + o.value, 0n);
  const fee = inTotal - outTotal;
  return { replacement: { tx, fee, feeRateSatVb: paidRate(rate, fee, tx), inputValues: old.inputValues } };
}

/** The rate a replacement pays: the one asked, or more where the fee of what it evicts set it. */
function paidRate(rate: bigint, fee: bigint, tx: Transaction): bigint {
  return maxBig(rate, fee / BigInt(tx.virtualSize()));
}

/**
 * A redeem or refund: the same HTLC inputs swept to the same destination, which receives less. Its size
 * does not depend on its fee, so where what it evicts asks more than the rate pays, the rate is raised.
 */
function bumpSweep(old: OldTx, rate: bigint, feeFor: FeeFor, request: BumpRequest): BumpOutcome {
  const leaf: HtlcLeafName = request.kind === "redeem" ? "redeem" : "refund";
  const destination = old.tx.outs[0]?.script;
  if (destination === undefined || old.tx.outs.length !== 1) {
    throw new ReplacementError(`attempt ${request.attempt.txHash} is not a one-output ${leaf} sweep`);
  }
  const matched = old.tx.ins.map((input, index) => {
    const leafScript = input.witness[input.witness.length - 2];
    const action = request.htlcs.findIndex(
      (h) => leafScript !== undefined && equalBytes(h.leaves[leaf].script, leafScript),
    );
    const htlc = request.htlcs[action];
    if (htlc === undefined) {
      throw new ReplacementError(
        `input ${index} of ${request.attempt.txHash} matches none of the actions' ${leaf} leaves`,
      );
    }
    const utxo: HtlcUtxo = {
      htlc,
      txid: hashToTxid(input.hash),
      vout: input.index,
      value: old.inputValues[index] ?? 0n,
    };
    return { utxo, secret: request.secrets[action] ?? null };
  });
  const sweep = (sweepRate: bigint) =>
    leaf === "redeem"
      ? buildRedeemTx(
          matched.map(({ utxo, secret }) => {
            if (secret === null) throw new ReplacementError(`redeem of ${utxo.htlc.address} has no secret`);
            return { ...utxo, secret };
          }),
          request.key,
          destination,
          sweepRate,
        )
      : buildRefundTx(
          matched.map(({ utxo }) => utxo),
          request.key,
          destination,
          sweepRate,
        );
  try {
    let built = sweep(rate);
    const needed = feeFor(built.tx.weight());
    if ("refused" in needed) return needed;
    let paid = rate;
    if (built.fee < needed.fee) {
      paid = rateForFee(needed.fee, built.tx.virtualSize());
      built = sweep(paid);
    }
    return {
      replacement: { tx: built.tx, fee: built.fee, feeRateSatVb: paid, inputValues: old.inputValues },
    };
  } catch (error) {
    if (error instanceof ReplacementError) throw error;
    return { refused: `the swept ${leaf} value cannot pay the higher fee` };
  }
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
