/**
 * Starknet field elements as the wire and the API write them. Every felt is below the field's prime; the
 * JSON-RPC writes them `0x`-prefixed, lower-case, without leading zeros; the service prints addresses
 * zero-padded to 64 digits and swap ids without `0x` and without leading zeros (docs/service-api.md).
 */

/** The Stark field's prime, 2^251 + 17·2^192 + 1: no felt reaches it. */
export const FELT_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

const HEX = /^0x[0-9a-fA-F]{1,64}$/;

/** A felt of any hex spelling (`0x`, either case, padded or not); throws naming `what` otherwise. */
export function parseFelt(value: string, what: string): bigint {
  if (!HEX.test(value)) throw new Error(`${what} ${JSON.stringify(value)} is not a 0x-prefixed hex felt`);
  const felt = BigInt(value);
  if (felt >= FELT_PRIME) throw new Error(`${what} ${value} is not below the Stark field's prime`);
  return felt;
}

/** The JSON-RPC's form: `0x`, lower-case, no leading zeros. */
export function feltHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** An address as the service prints it and the solver stores it: `0x` and 64 lower-case digits. */
export function addressHex(value: bigint): string {
  return `0x${value.toString(16).padStart(64, "0")}`;
}

/** A configured or stated address (any felt spelling) in its stored form; throws naming `what`. */
export function normalizeAddress(value: string, what: string): string {
  return addressHex(parseFelt(value, what));
}

/** The 32-byte secret hash as the contract takes it: eight big-endian u32 words. */
export function secretHashWords(secretHashHex: string): bigint[] {
  const hex = secretHashHex.replace(/^0x/, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`secret hash ${secretHashHex} is not 32 bytes of hex`);
  return bytesToWords(Buffer.from(hex, "hex"));
}

/** Bytes (a multiple of four) as the big-endian u32 words the contract's `Array<u32>` holds. */
export function bytesToWords(bytes: Uint8Array): bigint[] {
  if (bytes.length % 4 !== 0) throw new Error(`${bytes.length} bytes are not whole u32 words`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 4 }, (_, i) => BigInt(view.getUint32(i * 4, false)));
}

/** u32 words back to their bytes; throws when a word is not a u32. */
export function wordsToBytes(words: readonly bigint[]): Buffer {
  const bytes = Buffer.alloc(words.length * 4);
  words.forEach((word, i) => {
    if (word < 0n || word > 0xffff_ffffn) throw new Error(`word ${i} (${feltHex(word)}) is not a u32`);
    bytes.writeUInt32BE(Number(word), i * 4);
  });
  return bytes;
}

const U128 = 2n ** 128n;

/** A u256 as Cairo serialises it: [low, high]. */
export function u256Felts(value: bigint): [bigint, bigint] {
  if (value < 0n || value >= U128 * U128) throw new Error(`${value} is not a u256`);
  return [value % U128, value / U128];
}

/** [low, high] back to the u256; throws when either half is not a u128. */
export function u256Of(low: bigint, high: bigint): bigint {
  if (low >= U128 || high >= U128) throw new Error(`[${feltHex(low)}, ${feltHex(high)}] is not a u256`);
  return high * U128 + low;
}
