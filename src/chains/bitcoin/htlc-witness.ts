/**
 * Signature hashes, signatures and witness stacks for the three HTLC leaves, and the reverse: telling
 * from a spend's witness which leaf was used (and the secret a redeem revealed).
 */
import { crypto as btcCrypto, Transaction } from "bitcoinjs-lib";
import { bytesToHex, concatBytes, equalBytes } from "./bytes.js";
import type { BitcoinHtlc, HtlcLeafName } from "./htlc.js";
import type { BitcoinKey } from "./keys.js";

/** The output an input spends, as BIP-341 signature hashes need it. */
export interface PrevOut {
  script: Uint8Array;
  value: bigint;
}

export const SIGHASH_DEFAULT = Transaction.SIGHASH_DEFAULT;
/** The instant refund's pre-signature commits to its own input and the output at the same index only. */
export const SIGHASH_SINGLE_ANYONECANPAY = Transaction.SIGHASH_SINGLE | Transaction.SIGHASH_ANYONECANPAY;

/** BIP-341 script-path signature hash of one input for one leaf. */
export function leafSighash(
  tx: Transaction,
  inputIndex: number,
  prevouts: PrevOut[],
  htlc: BitcoinHtlc,
  leaf: HtlcLeafName,
  hashType: number,
): Uint8Array {
  return tx.hashForWitnessV1(
    inputIndex,
    prevouts.map((p) => p.script),
    prevouts.map((p) => p.value),
    hashType,
    htlc.leaves[leaf].hash,
  );
}

/** A BIP-340 signature in witness form: 64 bytes for SIGHASH_DEFAULT, else with the hash type appended. */
export function signLeaf(
  key: BitcoinKey,
  tx: Transaction,
  inputIndex: number,
  prevouts: PrevOut[],
  htlc: BitcoinHtlc,
  leaf: HtlcLeafName,
  hashType: number = SIGHASH_DEFAULT,
): Uint8Array {
  const sig = key.signSchnorr(leafSighash(tx, inputIndex, prevouts, htlc, leaf, hashType));
  return hashType === SIGHASH_DEFAULT ? sig : concatBytes([sig, Uint8Array.of(hashType)]);
}

export function redeemWitness(htlc: BitcoinHtlc, sig: Uint8Array, secret: Uint8Array): Uint8Array[] {
  return [sig, secret, htlc.leaves.redeem.script, htlc.controlBlock("redeem")];
}

/** The spending transaction must be version 2 with this input's nSequence = the HTLC timelock. */
export function refundWitness(htlc: BitcoinHtlc, sig: Uint8Array): Uint8Array[] {
  return [sig, htlc.leaves.refund.script, htlc.controlBlock("refund")];
}

export function instantRefundWitness(
  htlc: BitcoinHtlc,
  redeemerSig: Uint8Array,
  initiatorSig: Uint8Array,
): Uint8Array[] {
  return [redeemerSig, initiatorSig, htlc.leaves.instantRefund.script, htlc.controlBlock("instantRefund")];
}

export type HtlcSpendKind =
  { kind: "redeem"; secret: string } | { kind: "refund" } | { kind: "instantRefund" } | { kind: "unknown" };

/** BIP-341: a last item starting with 0x50 (with at least two items) is an annex, not part of the script path. */
function withoutAnnex(witness: Uint8Array[]): Uint8Array[] {
  const last = witness[witness.length - 1];
  return witness.length >= 2 && last !== undefined && last[0] === 0x50 ? witness.slice(0, -1) : witness;
}

/**
 * Which leaf spent an HTLC output, from the spend's witness. With `htlc` the leaf script must equal one
 * of its leaves; without it a redeem is recognised by shape (`OP_SHA256 <32 bytes> OP_EQUALVERIFY ...`)
 * and by the revealed item hashing to the script's hash, so a watcher without parameters finds secrets.
 */
export function classifyHtlcSpend(witness: Uint8Array[], htlc?: BitcoinHtlc): HtlcSpendKind {
  const stack = withoutAnnex(witness);
  const leafScript = stack[stack.length - 2];
  if (stack.length < 3 || leafScript === undefined) return { kind: "unknown" };
  if (htlc === undefined) return classifyByShape(stack, leafScript);
  if (equalBytes(leafScript, htlc.leaves.redeem.script)) return redeemSpend(stack);
  if (equalBytes(leafScript, htlc.leaves.refund.script)) return { kind: "refund" };
  if (equalBytes(leafScript, htlc.leaves.instantRefund.script)) return { kind: "instantRefund" };
  return { kind: "unknown" };
}

function redeemSpend(stack: Uint8Array[]): HtlcSpendKind {
  const secret = stack.length === 4 ? stack[1] : undefined;
  return secret === undefined ? { kind: "unknown" } : { kind: "redeem", secret: bytesToHex(secret) };
}

const OP_SHA256 = 0xa8;
const OP_EQUALVERIFY = 0x88;

function classifyByShape(stack: Uint8Array[], leafScript: Uint8Array): HtlcSpendKind {
  const looksLikeRedeem =
    stack.length === 4 &&
    leafScript[0] === OP_SHA256 &&
    leafScript[1] === 32 &&
    leafScript[34] === OP_EQUALVERIFY;
  const preimage = stack[1];
  if (!looksLikeRedeem || preimage === undefined) return { kind: "unknown" };
  const hashInScript = leafScript.subarray(2, 34);
  return equalBytes(btcCrypto.sha256(preimage), hashInScript) ? redeemSpend(stack) : { kind: "unknown" };
}
