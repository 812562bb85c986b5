/**
 * The solver's Starknet key: the Stark private key of its account contract, 32 bytes of hex (with or
 * without `0x`), non-zero and below the curve's order. Problems are described without quoting the value.
 */
import { ec } from "starknet";
import { randomBytes } from "node:crypto";
import { addressHex } from "./felt.js";

const CURVE_ORDER = ec.starkCurve.CURVE.n;

export type StarkKeyReading = { key: string } | { problem: string };

/** The key in its stored form (`0x` and 64 lower-case digits), or what is wrong with it. */
export function readStarkKey(text: string): StarkKeyReading {
  const hex = text.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return { problem: "is not 64 hex digits" };
  const value = BigInt(`0x${hex}`);
  if (value === 0n || value >= CURVE_ORDER)
    return { problem: "is not below the Stark curve's order, or is zero" };
  return { key: addressHex(value) };
}

/** The account's public key: the x coordinate the account contract stores. */
export function starkPublicKey(key: string): string {
  return addressHex(BigInt(ec.starkCurve.getStarkKey(key)));
}

/** A Stark ECDSA signature [r, s] of a hash. */
export function starkSign(key: string, hash: bigint): [bigint, bigint] {
  const signature = ec.starkCurve.sign(`0x${hash.toString(16)}`, key);
  return [signature.r, signature.s];
}

/** A new random key in stored form. */
export function newStarkKey(): string {
  for (;;) {
    const reading = readStarkKey(randomBytes(32).toString("hex"));
    // About one draw in 32 is past the order (2^252 against 2^256): draw again.
    if ("key" in reading) return reading.key;
  }
}
