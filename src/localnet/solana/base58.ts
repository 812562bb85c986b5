/** Base58 for signatures and wire transactions (the RPC's "base58" encoding). */
import { getBase58Decoder, getBase58Encoder } from "@solana/kit";

export function base58Encode(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes);
}

export function base58Decode(text: string): Uint8Array {
  return new Uint8Array(getBase58Encoder().encode(text));
}
