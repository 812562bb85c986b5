/**
 * Which secrets a redeem on a chain accepts, by length: the secret revealed on one chain must redeem the
 * other, and chains differ (EVM and Solana HTLCs take 32 bytes, Bitcoin's leaf any preimage, Starknet's
 * HTLC any whole number of 4-byte words).
 */

/** Bytes a redeem accepts: exactly this many, any multiple of `multipleOf`, or (null) any length. */
export type SecretLengthRule = number | { multipleOf: number } | null;

export function acceptsSecretLength(rule: SecretLengthRule, bytes: number): boolean {
  if (rule === null) return true;
  if (typeof rule === "number") return bytes === rule;
  return bytes % rule.multipleOf === 0;
}

/** `32 bytes`, `a multiple of 4 bytes`, `any length`: ends a phrase such as "takes secrets of …". */
export function describeSecretLength(rule: SecretLengthRule): string {
  if (rule === null) return "any length";
  if (typeof rule === "number") return `${rule} bytes`;
  return `a multiple of ${rule.multipleOf} bytes`;
}

/**
 * Whether a redeem of the destination can reveal a secret the source refuses: some length the destination
 * accepts is one the source does not.
 */
export function secretLengthUnenforced(source: SecretLengthRule, destination: SecretLengthRule): boolean {
  if (source === null) return false;
  if (destination === null) return true;
  if (typeof destination === "number") return !acceptsSecretLength(source, destination);
  if (typeof source === "number") return true;
  return destination.multipleOf % source.multipleOf !== 0;
}
