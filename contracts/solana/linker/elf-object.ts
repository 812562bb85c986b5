/**
 * Reads the parts of a relocatable ELF-64 little-endian BPF object (clang -c output) that the sBPF
 * linker needs: sections, symbols and REL relocations. Anything malformed is an ElfObjectError.
 */
import {
  ELF_HEADER_SIZE,
  ELFCLASS64,
  ELFDATA2LSB,
  EM_BPF,
  ET_REL,
  REL_SIZE,
  SECTION_HEADER_SIZE,
  SHT_REL,
  SHT_SYMTAB,
  SYMBOL_SIZE,
} from "./elf-constants.js";

export class ElfObjectError extends Error {
  constructor(message: string) {
    super(`not a usable BPF object: ${message}`);
    this.name = "ElfObjectError";
  }
}

export interface ObjectSection {
  index: number;
  name: string;
  type: number;
  flags: bigint;
  offset: number;
  size: number;
  align: number;
  link: number;
  info: number;
  /** File bytes of the section (empty for SHT_NOBITS). */
  data: Uint8Array;
}

export interface ObjectSymbol {
  name: string;
  /** Section index; 0 for undefined symbols. */
  section: number;
  value: number;
  type: number;
  binding: number;
}

export interface ObjectRelocation {
  /** Offset inside the section the relocation applies to. */
  offset: number;
  type: number;
  symbol: number;
}

export interface ElfObject {
  sections: ObjectSection[];
  symbols: ObjectSymbol[];
  /** Relocations keyed by the index of the section they patch. */
  relocations: Map<number, ObjectRelocation[]>;
}

export function readElfObject(bytes: Uint8Array): ElfObject {
  if (bytes.length < ELF_HEADER_SIZE) throw new ElfObjectError("shorter than an ELF header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0, false);
  if (magic !== 0x7f454c46) throw new ElfObjectError("no ELF magic");
  if (bytes[4] !== ELFCLASS64 || bytes[5] !== ELFDATA2LSB)
    throw new ElfObjectError("not ELF-64 little-endian");
  if (view.getUint16(16, true) !== ET_REL) throw new ElfObjectError("not a relocatable object (ET_REL)");
  if (view.getUint16(18, true) !== EM_BPF) throw new ElfObjectError("not a BPF object (EM_BPF)");
  const shoff = Number(view.getBigUint64(40, true));
  const shentsize = view.getUint16(58, true);
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  if (shentsize !== SECTION_HEADER_SIZE) throw new ElfObjectError(`section header size ${shentsize}`);
  if (shoff + shnum * shentsize > bytes.length) throw new ElfObjectError("section headers past the end");

  const raw = Array.from({ length: shnum }, (_, index) => readSectionHeader(bytes, view, shoff, index));
  const names = raw[shstrndx];
  if (names === undefined) throw new ElfObjectError("no section name table");
  const sections = raw.map((s) => ({ ...s, name: readString(names.data, s.nameOffset) }));

  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  const symbols = symtab ? readSymbols(symtab, sections) : [];
  const relocations = new Map<number, ObjectRelocation[]>();
  for (const section of sections.filter((s) => s.type === SHT_REL)) {
    relocations.set(section.info, readRelocations(section, symbols.length));
  }
  return { sections, symbols, relocations };
}

function readSectionHeader(
  bytes: Uint8Array,
  view: DataView,
  shoff: number,
  index: number,
): ObjectSection & { nameOffset: number } {
  const at = shoff + index * SECTION_HEADER_SIZE;
  const type = view.getUint32(at + 4, true);
  const offset = Number(view.getBigUint64(at + 24, true));
  const size = Number(view.getBigUint64(at + 32, true));
  const hasBytes = type !== 8; // SHT_NOBITS occupies no file bytes
  if (hasBytes && offset + size > bytes.length) throw new ElfObjectError(`section ${index} past the end`);
  return {
    index,
    nameOffset: view.getUint32(at, true),
    name: "",
    type,
    flags: view.getBigUint64(at + 8, true),
    offset,
    size,
    link: view.getUint32(at + 40, true),
    info: view.getUint32(at + 44, true),
    align: Math.max(1, Number(view.getBigUint64(at + 48, true))),
    data: hasBytes ? bytes.subarray(offset, offset + size) : new Uint8Array(0),
  };
}

function readString(table: Uint8Array, offset: number): string {
  if (offset >= table.length) throw new ElfObjectError(`string offset ${offset} outside its table`);
  let end = offset;
  while (end < table.length && table[end] !== 0) end++;
  return new TextDecoder().decode(table.subarray(offset, end));
}

function readSymbols(symtab: ObjectSection, sections: ObjectSection[]): ObjectSymbol[] {
  const strings = sections[symtab.link];
  if (strings === undefined) throw new ElfObjectError("symbol table without a string table");
  const view = new DataView(symtab.data.buffer, symtab.data.byteOffset, symtab.data.byteLength);
  const count = Math.floor(symtab.size / SYMBOL_SIZE);
  return Array.from({ length: count }, (_, i) => {
    const at = i * SYMBOL_SIZE;
    const info = view.getUint8(at + 4);
    return {
      name: readString(strings.data, view.getUint32(at, true)),
      type: info & 0xf,
      binding: info >> 4,
      section: view.getUint16(at + 6, true),
      value: Number(view.getBigUint64(at + 8, true)),
    };
  });
}

function readRelocations(section: ObjectSection, symbolCount: number): ObjectRelocation[] {
  const view = new DataView(section.data.buffer, section.data.byteOffset, section.data.byteLength);
  const count = Math.floor(section.size / REL_SIZE);
  return Array.from({ length: count }, (_, i) => {
    const info = view.getBigUint64(i * REL_SIZE + 8, true);
    const symbol = Number(info >> 32n);
    if (symbol >= symbolCount)
      throw new ElfObjectError(`relocation against symbol ${symbol} of ${symbolCount}`);
    return {
      offset: Number(view.getBigUint64(i * REL_SIZE, true)),
      type: Number(info & 0xffffffffn),
      symbol,
    };
  });
}
