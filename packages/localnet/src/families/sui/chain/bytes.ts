/** Byte helpers of the local Sui chain: hex without `0x` (as order ids are printed), sha256, equality. */
import { createHash } from "node:crypto";

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

export function bareHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function bytesOfHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.replace(/^0x/, ""), "hex"));
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Little-endian bytes of `value` in `size` bytes (Move's BCS of u64 and u256). */
export function littleEndian(value: bigint, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let rest = value;
  for (let i = 0; i < size; i++) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}
