import { describeOutput } from "./output-script.js";

// BIP-380 descriptor checksum.
const INPUT_CHARSET =
  "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ";
const CHECKSUM_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn];

function polymod(symbols: number[]): bigint {
  let chk = 1n;
  for (const value of symbols) {
    const top = chk >> 35n;
    chk = ((chk & 0x7ffffffffn) << 5n) ^ BigInt(value);
    GENERATOR.forEach((g, i) => {
      if (((top >> BigInt(i)) & 1n) !== 0n) chk ^= g;
    });
  }
  return chk;
}

function expand(text: string): number[] | null {
  const symbols: number[] = [];
  let groups: number[] = [];
  for (const ch of text) {
    const v = INPUT_CHARSET.indexOf(ch);
    if (v < 0) return null;
    symbols.push(v & 31);
    groups.push(v >> 5);
    if (groups.length === 3) {
      symbols.push((groups[0] ?? 0) * 9 + (groups[1] ?? 0) * 3 + (groups[2] ?? 0));
      groups = [];
    }
  }
  if (groups.length === 1) symbols.push(groups[0] ?? 0);
  if (groups.length === 2) symbols.push((groups[0] ?? 0) * 3 + (groups[1] ?? 0));
  return symbols;
}

export function descriptorChecksum(descriptor: string): string {
  const symbols = expand(descriptor);
  if (symbols === null)
    throw new Error(`descriptor "${descriptor}" has characters outside the descriptor charset`);
  const checksum = polymod([...symbols, 0, 0, 0, 0, 0, 0, 0, 0]) ^ 1n;
  let out = "";
  for (let i = 0; i < 8; i++) out += CHECKSUM_CHARSET[Number((checksum >> BigInt(5 * (7 - i))) & 31n)];
  return out;
}

export function withChecksum(descriptor: string): string {
  return `${descriptor}#${descriptorChecksum(descriptor)}`;
}

/** The descriptor bitcoind infers for an output script it has no keys for. */
export function inferDescriptor(script: Uint8Array): string {
  const { type, address } = describeOutput(script);
  const hex = Buffer.from(script).toString("hex");
  if (type === "witness_v1_taproot") return withChecksum(`rawtr(${hex.slice(4)})`);
  if (type === "pubkey") return withChecksum(`pk(${hex.slice(2, -2)})`);
  if (address !== undefined) return withChecksum(`addr(${address})`);
  return withChecksum(`raw(${hex})`);
}

/**
 * The output script a scantxoutset descriptor names: `addr(ADDRESS)` or `raw(HEX)`, with an optional
 * checksum that must then be right. Null for anything else.
 */
export function descriptorScript(
  descriptor: string,
  toScript: (address: string) => Uint8Array | null,
): Uint8Array | null {
  const [body = "", checksum] = descriptor.split("#");
  if (checksum !== undefined && descriptorChecksum(body) !== checksum) return null;
  const addr = /^addr\((.+)\)$/.exec(body);
  if (addr?.[1] !== undefined) return toScript(addr[1]);
  const raw = /^raw\(([0-9a-fA-F]*)\)$/.exec(body);
  if (raw?.[1] !== undefined && raw[1].length % 2 === 0) return Buffer.from(raw[1], "hex");
  return null;
}
