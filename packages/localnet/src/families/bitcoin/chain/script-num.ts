import { ScriptFailure } from "./script-error.js";

/**
 * Decodes a script number (little-endian sign-magnitude). Too long or, under MINIMALDATA, non-minimal
 * encodings fail the way bitcoind's scriptnum_error does: as "unknown error".
 */
export function decodeScriptNum(bytes: Uint8Array, requireMinimal: boolean, maxSize = 4): bigint {
  if (bytes.length > maxSize) throw new ScriptFailure("UNKNOWN_ERROR");
  if (bytes.length === 0) return 0n;
  const last = bytes[bytes.length - 1] ?? 0;
  if (requireMinimal && (last & 0x7f) === 0) {
    // The top byte may only be 0x00/0x80 when the byte below needs its high bit for magnitude.
    if (bytes.length <= 1 || ((bytes[bytes.length - 2] ?? 0) & 0x80) === 0) {
      throw new ScriptFailure("UNKNOWN_ERROR");
    }
  }
  let result = 0n;
  for (let i = 0; i < bytes.length; i++) result |= BigInt(bytes[i] ?? 0) << BigInt(8 * i);
  if ((last & 0x80) !== 0) {
    return -(result & ~(0x80n << BigInt(8 * (bytes.length - 1))));
  }
  return result;
}

export function encodeScriptNum(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  const negative = value < 0n;
  let abs = negative ? -value : value;
  const out: number[] = [];
  while (abs > 0n) {
    out.push(Number(abs & 0xffn));
    abs >>= 8n;
  }
  const top = out[out.length - 1] ?? 0;
  if ((top & 0x80) !== 0) out.push(negative ? 0x80 : 0x00);
  else if (negative) out[out.length - 1] = top | 0x80;
  return Uint8Array.from(out);
}

/** Bitcoin's truth value of a stack element: any non-zero byte, except a lone sign bit at the end. */
export function castToBool(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) return !(i === bytes.length - 1 && bytes[i] === 0x80);
  }
  return false;
}
