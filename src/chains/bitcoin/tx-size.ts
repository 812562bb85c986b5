/**
 * Transaction weight from its shape, for fee estimates before signing. Schnorr signatures have a fixed
 * size, so these figures are exact for the transactions this package builds (tests compare them with
 * the signed result).
 */

export function compactSizeLength(n: number): number {
  if (n < 0xfd) return 1;
  if (n <= 0xffff) return 3;
  return n <= 0xffffffff ? 5 : 9;
}

/** Version, locktime, input and output counts (non-witness, ×4) plus the SegWit marker and flag. */
export function txOverheadWeight(inputs: number, outputs: number): number {
  return (4 + 4 + compactSizeLength(inputs) + compactSizeLength(outputs)) * 4 + 2;
}

/** Outpoint, empty scriptSig and sequence, ×4. */
export const INPUT_BASE_WEIGHT = (32 + 4 + 1 + 4) * 4;

export function witnessWeight(itemLengths: number[]): number {
  return itemLengths.reduce(
    (sum, len) => sum + compactSizeLength(len) + len,
    compactSizeLength(itemLengths.length),
  );
}

/** A key-path P2TR input with a SIGHASH_DEFAULT signature. */
export const P2TR_KEYPATH_INPUT_WEIGHT = INPUT_BASE_WEIGHT + witnessWeight([64]);

export function outputWeight(scriptLength: number): number {
  return (8 + compactSizeLength(scriptLength) + scriptLength) * 4;
}

export const P2TR_OUTPUT_WEIGHT = outputWeight(34);

/** bitcoind's dust threshold for a P2TR output at the default dust relay fee (3 sat/vB). */
export const P2TR_DUST_LIMIT = 330n;

export function vsizeOfWeight(weight: number): number {
  return Math.ceil(weight / 4);
}
