/** Felts, u256 halves and short strings as the Starknet JSON-RPC writes them (0x-prefixed lowercase hex). */
import { shortString } from "starknet";

/** The Starknet field prime, 2^251 + 17·2^192 + 1: every felt is below it. */
export const FELT_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;
const U128_LIMIT = 2n ** 128n;

export function feltHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** A hex felt; leading zeros are accepted (live nodes accept padded addresses too). */
export function parseFeltHex(text: string): bigint | undefined {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < FELT_PRIME ? value : undefined;
}

export function shortStringFelt(text: string): bigint {
  return BigInt(shortString.encodeShortString(text));
}

export function u256Parts(value: bigint): { low: bigint; high: bigint } {
  return { low: value % U128_LIMIT, high: value / U128_LIMIT };
}

export function u256FromParts(low: bigint, high: bigint): bigint {
  return high * U128_LIMIT + low;
}

/** The eight big-endian u32 words of a 32-byte hash, as Cairo's `[u32; 8]` carries it. */
export function hashWords(hash: Uint8Array): bigint[] {
  if (hash.length !== 32) throw new RangeError(`a hash has 32 bytes, got ${hash.length}`);
  const view = new DataView(hash.buffer, hash.byteOffset, hash.byteLength);
  return Array.from({ length: 8 }, (_, i) => BigInt(view.getUint32(i * 4, false)));
}

/** The big-endian bytes of u32 words, as Cairo's `compute_sha256_u32_array` hashes them. */
export function wordsBytes(words: readonly bigint[]): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(i * 4, Number(word), false));
  return bytes;
}
