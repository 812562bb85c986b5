/** Private keys on secp256k1 (EVM accounts, Bitcoin's Taproot key): 32 bytes of hex inside the group order. */
import type { Checked } from "../config/zod/values.js";

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Lower-case hex without 0x, or the problem with it (never quoting the key). */
export function readSecp256k1Key(value: string): Checked<string> {
  const hex = value.trim().replace(/^0x/i, "");
  const scalar = /^[0-9a-fA-F]{64}$/.test(hex) ? BigInt(`0x${hex}`) : 0n;
  if (scalar === 0n || scalar >= SECP256K1_ORDER)
    return { problem: "is not a 32-byte hex private key on secp256k1 (value not shown)" };
  return { value: hex.toLowerCase() };
}
