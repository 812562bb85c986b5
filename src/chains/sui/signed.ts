/**
 * A signed Sui transaction as journaled (`SignedTx.raw`): the BCS `TransactionData` followed by its
 * serialized Ed25519 signature (flag, 64-byte signature, 32-byte public key), in hex. The digest is the
 * transaction's own (blake2b256 of "TransactionData::" and the bytes), so the same raw resubmitted is the
 * same transaction.
 */
import { toBase64 } from "@mysten/sui/utils";
import { TransactionDataBuilder } from "@mysten/sui/transactions";
import { fromBase64 } from "@mysten/sui/utils";

const SIGNATURE_BYTES = 97;

export function rawOfSigned(txBytes: Uint8Array, signatureBase64: string): string {
  const signature = fromBase64(signatureBase64);
  if (signature.length !== SIGNATURE_BYTES) throw new Error("not an Ed25519 serialized signature");
  return Buffer.concat([txBytes, signature]).toString("hex");
}

export function signedOfRaw(raw: string): { txBytes: Uint8Array; signature: string; digest: string } {
  if (!/^([0-9a-f]{2})+$/.test(raw) || raw.length <= SIGNATURE_BYTES * 2)
    throw new Error("a journaled Sui transaction is not hex of bytes and signature");
  const all = Buffer.from(raw, "hex");
  const txBytes = Uint8Array.from(all.subarray(0, all.length - SIGNATURE_BYTES));
  const signature = toBase64(all.subarray(all.length - SIGNATURE_BYTES));
  return { txBytes, signature, digest: TransactionDataBuilder.getDigestFromBytes(txBytes) };
}
