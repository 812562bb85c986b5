/** Base58 as Solana writes keys, signatures and wire transactions. */
import { getBase58Decoder, getBase58Encoder } from "@solana/kit";

export function base58Encode(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes);
}

/** Throws on a character outside the base58 alphabet. */
export function base58Decode(text: string): Uint8Array {
  return new Uint8Array(getBase58Encoder().encode(text));
}
