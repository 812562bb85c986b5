/**
 * Replace-by-fee for the solver's own transactions: the same inputs at a higher rate, so the
 * replacement conflicts with (and evicts) the original. BIP-125 asks for a higher absolute fee that also
 * pays the incremental relay fee (1 sat/vB) for the replacement's size; the rate rises by at least
 * 1 sat/vB. Everything needed is in the journaled attempt (raw transaction, rate, input values) and the
 * actions, so a bump after a restart needs no lookups.
 */
import { Transaction } from "bitcoinjs-lib";
import type { TxAttemptRef } from "../chain.js";
import { equalBytes, hashToTxid } from "./bytes.js";
import { bumpedFeeRate, feeForWeight, type FeeRateBounds } from "./fee.js";
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
  key: BitcoinKey;
  wallet: BitcoinWallet;
}

export interface Replacement {
  tx: Transaction;
  fee: bigint;
  feeRateSatVb: bigint;
  inputValues: bigint[];
}

interface OldTx {
  tx: Transaction;
  rate: bigint;
  fee: bigint;
  inputValues: bigint[];
}

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

/** A replacement at a higher rate, or null when the ceiling or the available value rules one out. */
export function bumpTransaction(request: BumpRequest): Replacement | null {
  const old = readAttempt(request.attempt);
  const rate = bumpedFeeRate(old.rate, request.targetRateSatVb, request.bounds);
  if (rate === null) return null;
  const replacement =
    request.kind === "fill" || request.kind === "cancel"
      ? bumpPayment(old, rate, request.wallet, request.kind === "fill")
      : bumpSweep(old, rate, request);
  if (replacement === null) return null;
  // BIP-125 rules 3 and 4: more absolute fee, and the increase pays 1 sat/vB for the new size.
  const minimumFee = old.fee + BigInt(replacement.tx.virtualSize());
  return replacement.fee >= minimumFee ? replacement : null;
}

/**
 * A wallet payment: same inputs and payment outputs, the change reduced (or dropped when it turns dust).
 * Without `keepPayments` everything goes back to the wallet: the payment is cancelled.
 */
function bumpPayment(
  old: OldTx,
  rate: bigint,
  wallet: BitcoinWallet,
  keepPayments: boolean,
): Replacement | null {
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
  const withChange = baseWeight + P2TR_OUTPUT_WEIGHT;
  const feeWithChange = maxBig(feeForWeight(withChange, rate), old.fee + BigInt(vsizeOfWeight(withChange)));
  const change = inTotal - payTotal - feeWithChange;
  const outputs = payments.map((o) => ({ script: o.script, value: o.value }));
  if (change >= P2TR_DUST_LIMIT) outputs.push({ script: wallet.outputScript, value: change });
  else if (inTotal - payTotal < feeForWeight(baseWeight, rate)) return null;
  const tx = wallet.signPayment(inputs, outputs);
  const outTotal = outputs.reduce((s, o) => s + o.value, 0n);
  return { tx, fee: inTotal - outTotal, feeRateSatVb: rate, inputValues: old.inputValues };
}

/** A redeem or refund: the same HTLC inputs swept to the same destination, which receives less. */
function bumpSweep(old: OldTx, rate: bigint, request: BumpRequest): Replacement | null {
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
  try {
    const built =
      leaf === "redeem"
        ? buildRedeemTx(
            matched.map(({ utxo, secret }) => {
              if (secret === null) throw new ReplacementError(`redeem of ${utxo.htlc.address} has no secret`);
              return { ...utxo, secret };
            }),
            request.key,
            destination,
            rate,
          )
        : buildRefundTx(
            matched.map(({ utxo }) => utxo),
            request.key,
            destination,
            rate,
          );
    return { tx: built.tx, fee: built.fee, feeRateSatVb: rate, inputValues: old.inputValues };
  } catch (error) {
    if (error instanceof ReplacementError) throw error;
    // The swept value cannot pay the higher fee: no replacement.
    return null;
  }
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
