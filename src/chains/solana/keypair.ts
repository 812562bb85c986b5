/**
 * The solver's Solana key as configured: the usual 64-byte secret key (32-byte seed followed by the
 * public key), written in base58 or as the JSON array of 64 numbers that solana-keygen writes. Problems
 * are described without ever quoting the value.
 */
import { Keypair } from "@solana/web3.js";
import { base58Decode, base58Encode } from "./base58.js";

export type SolanaKeyReading = { keypair: Keypair } | { problem: string };

function bytesOf(text: string): Uint8Array | string {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return "is neither base58 nor a JSON array of 64 bytes";
    }
    const valid =
      Array.isArray(parsed) &&
      parsed.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) < 256);
    return valid ? Uint8Array.from(parsed as number[]) : "is a JSON array, but not of bytes";
  }
  try {
    return base58Decode(trimmed);
  } catch {
    return "is neither base58 nor a JSON array of 64 bytes";
  }
}

export function readSolanaSecretKey(text: string): SolanaKeyReading {
  const bytes = bytesOf(text);
  if (typeof bytes === "string") return { problem: bytes };
  if (bytes.length !== 64)
    return { problem: `holds ${bytes.length} bytes, not the 64 of a Solana secret key` };
  try {
    // Checks that the second half is the public key of the first.
    return { keypair: Keypair.fromSecretKey(bytes) };
  } catch {
    return { problem: "is 64 bytes whose second half is not the public key of the first" };
  }
}

/** The key in its canonical form: base58 of the 64 bytes. */
export function solanaSecretKeyText(keypair: Keypair): string {
  return base58Encode(keypair.secretKey);
}
