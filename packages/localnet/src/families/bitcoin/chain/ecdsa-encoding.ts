/**
 * ECDSA signature encoding rules of Bitcoin Core: strict DER (BIP-66), low S and defined hash types.
 * Signatures here carry the trailing sighash byte, as they sit on the stack.
 */

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** BIP-66 strict DER, including the trailing hash type byte. */
export function isValidSignatureEncoding(sig: Uint8Array): boolean {
  const at = (i: number): number => sig[i] ?? 0;
  if (sig.length < 9 || sig.length > 73) return false;
  if (at(0) !== 0x30 || at(1) !== sig.length - 3) return false;
  const lenR = at(3);
  if (5 + lenR >= sig.length) return false;
  const lenS = at(5 + lenR);
  if (lenR + lenS + 7 !== sig.length) return false;
  if (at(2) !== 0x02 || lenR === 0 || (at(4) & 0x80) !== 0) return false;
  if (lenR > 1 && at(4) === 0x00 && (at(5) & 0x80) === 0) return false;
  if (at(lenR + 4) !== 0x02 || lenS === 0 || (at(lenR + 6) & 0x80) !== 0) return false;
  if (lenS > 1 && at(lenR + 6) === 0x00 && (at(lenR + 7) & 0x80) === 0) return false;
  return true;
}

function integerAt(sig: Uint8Array, offset: number, length: number): bigint {
  let value = 0n;
  for (let i = 0; i < length; i++) value = (value << 8n) | BigInt(sig[offset + i] ?? 0);
  return value;
}

/** r and s of a strictly encoded signature (with hash type byte). */
export function splitDer(sig: Uint8Array): { r: bigint; s: bigint } {
  const lenR = sig[3] ?? 0;
  const lenS = sig[5 + lenR] ?? 0;
  return { r: integerAt(sig, 4, lenR), s: integerAt(sig, 6 + lenR, lenS) };
}

export function isLowS(sig: Uint8Array): boolean {
  return splitDer(sig).s <= HALF_ORDER;
}

/** STRICTENC: ALL, NONE or SINGLE, optionally with ANYONECANPAY. */
export function isDefinedHashType(sig: Uint8Array): boolean {
  if (sig.length === 0) return false;
  const base = (sig[sig.length - 1] ?? 0) & ~0x80;
  return base >= 1 && base <= 3;
}

/** 64-byte r||s for libsecp256k1-style verification; null when r or s does not fit 32 bytes. */
export function toCompact(sig: Uint8Array): Uint8Array | null {
  const { r, s } = splitDer(sig);
  if (r >= 1n << 256n || s >= 1n << 256n) return null;
  const out = new Uint8Array(64);
  out.set(Buffer.from(r.toString(16).padStart(64, "0"), "hex"), 0);
  out.set(Buffer.from(s.toString(16).padStart(64, "0"), "hex"), 32);
  return out;
}

export function isCompressedPubKey(key: Uint8Array): boolean {
  return key.length === 33 && (key[0] === 0x02 || key[0] === 0x03);
}

export function isCompressedOrUncompressedPubKey(key: Uint8Array): boolean {
  return isCompressedPubKey(key) || (key.length === 65 && key[0] === 0x04);
}
