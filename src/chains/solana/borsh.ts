/** The Borsh subset the HTLC programs use: u8, u32, u64, fixed byte arrays, public keys, Option<Vec<u8>>. */
import { PublicKey } from "@solana/web3.js";
import { SolanaDecodeError } from "./errors.js";

const U64_MAX = (1n << 64n) - 1n;

export class BorshWriter {
  private readonly parts: Uint8Array[] = [];

  bytes(value: Uint8Array): this {
    this.parts.push(value);
    return this;
  }

  fixed(value: Uint8Array, length: number, field: string): this {
    if (value.length !== length)
      throw new RangeError(`${field} must be ${length} bytes, got ${value.length}`);
    return this.bytes(value);
  }

  pubkey(value: PublicKey): this {
    return this.bytes(value.toBytes());
  }

  u64(value: bigint, field: string): this {
    if (value < 0n || value > U64_MAX) throw new RangeError(`${field} must fit in a u64, got ${value}`);
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, value, true);
    return this.bytes(out);
  }

  optionBytes(value: Uint8Array | undefined): this {
    if (value === undefined) return this.bytes(Uint8Array.of(0));
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, value.length, true);
    return this.bytes(Uint8Array.of(1)).bytes(length).bytes(value);
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export class BorshReader {
  private at: number;

  constructor(
    private readonly data: Uint8Array,
    start = 0,
    private readonly what = "data",
  ) {
    this.at = start;
  }

  bytes(length: number): Uint8Array {
    if (this.at + length > this.data.length) {
      throw new SolanaDecodeError(
        `${this.what} ends at byte ${this.data.length}, needed ${this.at + length}`,
      );
    }
    const out = this.data.slice(this.at, this.at + length);
    this.at += length;
    return out;
  }

  u8(): number {
    return this.bytes(1)[0] ?? 0;
  }

  u32(): number {
    const b = this.bytes(4);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
  }

  u64(): bigint {
    const b = this.bytes(8);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);
  }

  pubkey(): PublicKey {
    return new PublicKey(this.bytes(32));
  }

  optionBytes(): Uint8Array | undefined {
    const tag = this.u8();
    if (tag === 0) return undefined;
    if (tag !== 1) throw new SolanaDecodeError(`${this.what} has Option tag ${tag} (expected 0 or 1)`);
    return this.bytes(this.u32());
  }
}
