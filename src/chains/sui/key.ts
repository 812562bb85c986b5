/**
 * The solver's Sui key: an Ed25519 private key, written as the SDK exports it (`suiprivkey1…`, Bech32,
 * Ed25519 scheme only) or as 32 bytes of hex (with or without `0x`). Stored as the Bech32 form. Problems
 * are described without quoting the value.
 */
import { decodeSuiPrivateKey } from "@mysten/sui/cryptography";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";

export type SuiKeyReading = { key: string } | { problem: string };

/** The key in its stored form, or what is wrong with it. */
export function readSuiKey(text: string): SuiKeyReading {
  const value = text.trim();
  if (value.startsWith("suiprivkey")) {
    let decoded;
    try {
      decoded = decodeSuiPrivateKey(value);
    } catch {
      return { problem: "is not a valid suiprivkey Bech32 string" };
    }
    if (decoded.schema !== "ED25519") return { problem: `is a ${decoded.schema} key, not an Ed25519 one` };
    return { key: Ed25519Keypair.fromSecretKey(decoded.secretKey).getSecretKey() };
  }
  const hex = value.replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return { problem: "is neither suiprivkey… nor 64 hex digits" };
  return { key: Ed25519Keypair.fromSecretKey(Uint8Array.from(Buffer.from(hex, "hex"))).getSecretKey() };
}

/** The key pair of a key in stored form. */
export function suiKeypair(key: string): Ed25519Keypair {
  const reading = readSuiKey(key);
  if ("problem" in reading) throw new Error(`the Sui key ${reading.problem}`);
  return Ed25519Keypair.fromSecretKey(decodeSuiPrivateKey(reading.key).secretKey);
}

/** The account address of a key: blake2b256 of the Ed25519 flag and public key. */
export function suiAddressOfKey(key: string): string {
  return suiKeypair(key).toSuiAddress();
}

/** A new random key in stored form. */
export function newSuiKey(): string {
  return new Ed25519Keypair().getSecretKey();
}
