/** Small writers for ELF string, symbol, relocation and dynamic tables. */

export function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

/** A string table: offset 0 is the empty string; equal strings share one entry. */
export class StringTable {
  private readonly offsets = new Map<string, number>([["", 0]]);
  private readonly parts: Uint8Array[] = [new Uint8Array(1)];
  private length = 1;

  add(name: string): number {
    const known = this.offsets.get(name);
    if (known !== undefined) return known;
    const bytes = new TextEncoder().encode(`${name}\0`);
    const offset = this.length;
    this.offsets.set(name, offset);
    this.parts.push(bytes);
    this.length += bytes.length;
    return offset;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export function writeSymbol(
  into: Uint8Array,
  at: number,
  s: { nameOffset: number; info: number; shndx: number; value: number; size: number },
): void {
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  view.setUint32(at, s.nameOffset, true);
  view.setUint8(at + 4, s.info);
  view.setUint8(at + 5, 0);
  view.setUint16(at + 6, s.shndx, true);
  view.setBigUint64(at + 8, BigInt(s.value), true);
  view.setBigUint64(at + 16, BigInt(s.size), true);
}

export function writeRel(
  into: Uint8Array,
  at: number,
  r: { offset: number; type: number; symbol: number },
): void {
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  view.setBigUint64(at, BigInt(r.offset), true);
  view.setBigUint64(at + 8, (BigInt(r.symbol) << 32n) | BigInt(r.type), true);
}

export function writeDynamic(into: Uint8Array, at: number, tag: number, value: number): void {
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  view.setBigUint64(at, BigInt(tag), true);
  view.setBigUint64(at + 8, BigInt(value), true);
}
