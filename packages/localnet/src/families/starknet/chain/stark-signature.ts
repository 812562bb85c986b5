/**
 * Stark ECDSA verification against an account's stored public key, which is the x coordinate only (the
 * "Stark key"): like Cairo's `check_ecdsa_signature`, the signature is valid for either point with that x.
 */
import { ec } from "starknet";

export function isValidStarkSignature(
  messageHash: bigint,
  signature: readonly bigint[],
  starkKey: bigint,
): boolean {
  if (signature.length !== 2) return false;
  const [r, s] = signature as [bigint, bigint];
  const x = starkKey.toString(16).padStart(64, "0");
  const msg = `0x${messageHash.toString(16)}`;
  for (const prefix of ["02", "03"]) {
    try {
      if (ec.starkCurve.verify(new ec.starkCurve.Signature(r, s), msg, `${prefix}${x}`)) return true;
    } catch {
      // r or s out of range, or no curve point with this x: not a valid signature.
    }
  }
  return false;
}
