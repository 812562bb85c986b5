/**
 * Sui addresses and object ids: `0x` and 64 lower-case hex digits (docs/protocol.md, Sui). Values from
 * config are read in any case and with leading zeros left out, and stored in that one form.
 */
import { normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils";

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{1,64}$/;
const STORED_ADDRESS = /^0x[0-9a-f]{64}$/;

/** The address in its stored form; null when it is not one. */
export function readSuiAddress(value: string): string | null {
  return ADDRESS_TEXT.test(value) ? normalizeSuiAddress(value.toLowerCase()) : null;
}

/** Whether `value` is already in the stored form, as nodes print addresses. */
export function isStoredSuiAddress(value: string): boolean {
  return STORED_ADDRESS.test(value);
}

/** An address in stored form or an error naming `what` was not one. */
export function suiAddress(value: string, what: string): string {
  const read = readSuiAddress(value);
  if (read === null) throw new Error(`${what} ${JSON.stringify(value)} is not a Sui address`);
  return read;
}

/** A coin type (`0x2::sui::SUI`) with its package address in full, as nodes print types; null when malformed. */
export function readCoinType(value: string): string | null {
  if (!/^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(<.+>)?$/.test(value))
    return null;
  try {
    return normalizeStructTag(value);
  } catch {
    return null;
  }
}

/**
 * Whether two Move types are the same, whichever way each writes its addresses (nodes print framework
 * types short, `0x2::sui::SUI`); false when either is malformed.
 */
export function sameMoveType(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return normalizeStructTag(a) === normalizeStructTag(b);
  } catch {
    return false;
  }
}

/** Sui's own coin, which pays gas: `0x2::sui::SUI` in full. */
export const SUI_COIN_TYPE = normalizeStructTag("0x2::sui::SUI");

/** The clock object, shared and read-only since genesis. */
export const SUI_CLOCK = { objectId: normalizeSuiAddress("0x6"), initialSharedVersion: 1 } as const;

/** Bytes of a 32-byte hex value (no `0x`), e.g. a secret hash. */
export function hex32Bytes(value: string, what: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new Error(`${what} is not 32 bytes of hex`);
  return Uint8Array.from(Buffer.from(value, "hex"));
}
