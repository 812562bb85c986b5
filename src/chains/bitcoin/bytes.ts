/** Hex and byte helpers for Bitcoin code, where hex never carries a 0x prefix. */

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

export function hexToBytes(hex: string, what = "hex value"): Uint8Array {
  const clean = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (!HEX_RE.test(clean)) throw new Error(`${what} is not even-length hex: "${hex.slice(0, 80)}"`);
  return Uint8Array.from(Buffer.from(clean, "hex"));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** Bytes of exactly `length`, from hex; names the field when it is wrong. */
export function fixedBytes(hex: string, length: number, what: string): Uint8Array {
  const bytes = hexToBytes(hex, what);
  if (bytes.length !== length) throw new Error(`${what} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

/** Txids are shown big-endian but serialised little-endian inside transactions. */
export function txidToHash(txid: string): Uint8Array {
  return fixedBytes(txid, 32, "txid").reverse();
}

export function hashToTxid(hash: Uint8Array): string {
  return bytesToHex(Uint8Array.from(hash).reverse());
}
