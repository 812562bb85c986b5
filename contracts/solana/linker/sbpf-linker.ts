/**
 * Links one clang BPF object into a loadable sBPF v0 program (a shared object the Solana loaders accept):
 *
 *   ELF header | program headers | .text | .rodata | .dynamic | .dynsym | .dynstr | .rel.dyn | .shstrtab |
 *   section headers
 *
 * Every allocated section has address == file offset, which is how the loader maps the read-only region.
 * `lddw` of a data address gets the address and an R_BPF_64_RELATIVE relocation (the loader adds the
 * region base); a call to an undefined symbol is a syscall, kept as an R_BPF_64_32 relocation against a
 * dynamic symbol of that name; calls inside the program are already pc-relative in clang's output. Mutable
 * data (.data, .bss) and data relocations inside .rodata are refused: sBPF v0 has no writable globals.
 */
import {
  BPF_CALL_OPCODE,
  BPF_INSN_SIZE,
  BPF_LDDW_OPCODE,
  DT_NULL,
  DT_REL,
  DT_RELENT,
  DT_RELSZ,
  DT_STRSZ,
  DT_STRTAB,
  DT_SYMENT,
  DT_SYMTAB,
  DYN_SIZE,
  ELF_HEADER_SIZE,
  ELFCLASS64,
  ELFDATA2LSB,
  EM_BPF,
  ET_DYN,
  EV_CURRENT,
  PF_R,
  PF_X,
  PROGRAM_HEADER_SIZE,
  PT_DYNAMIC,
  PT_LOAD,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_RELATIVE,
  REL_SIZE,
  SECTION_HEADER_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_UNDEF,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NOBITS,
  SHT_PROGBITS,
  SHT_REL,
  SHT_STRTAB,
  STB_GLOBAL,
  STT_FUNC,
  STT_NOTYPE,
  SYMBOL_SIZE,
} from "./elf-constants.js";
import type { ElfObject, ObjectRelocation, ObjectSection } from "./elf-object.js";
import { StringTable, align, writeDynamic, writeRel, writeSymbol } from "./elf-tables.js";

/** The syscalls the HTLC programs may call; any other undefined symbol is a link error. */
export const ALLOWED_SYSCALLS: ReadonlySet<string> = new Set([
  "sol_log_",
  "sol_log_64_",
  "sol_log_data",
  "sol_sha256",
  "sol_try_find_program_address",
  "sol_create_program_address",
  "sol_invoke_signed_c",
  "sol_get_clock_sysvar",
  "sol_get_rent_sysvar",
  "sol_memcpy_",
  "sol_memset_",
]);

export class SbpfLinkError extends Error {
  constructor(message: string) {
    super(`sBPF link failed: ${message}`);
    this.name = "SbpfLinkError";
  }
}

interface RodataPiece {
  section: ObjectSection;
  /** Offset of the piece inside the output .rodata. */
  at: number;
}

interface DynamicRelocation {
  offset: number;
  type: number;
  symbol: number;
}

export function linkSbpf(object: ElfObject, entrySymbol = "entrypoint"): Uint8Array {
  const text = singleTextSection(object);
  refuseMutableData(object);
  const pieces = rodataPieces(object);
  const rodataSize = pieces.reduce((end, p) => Math.max(end, p.at + p.section.size), 0);

  const phnum = 4;
  const textAddr = align(ELF_HEADER_SIZE + phnum * PROGRAM_HEADER_SIZE, 8);
  const rodataAddr = align(textAddr + text.size, 8);
  const textBytes = text.data.slice();
  const rodata = new Uint8Array(rodataSize);
  for (const p of pieces) rodata.set(p.section.data, p.at);

  const sectionAddr = new Map<number, number>([[text.index, textAddr]]);
  for (const p of pieces) sectionAddr.set(p.section.index, rodataAddr + p.at);

  const dynstr = new StringTable();
  const syscalls = new Map<string, number>();
  const dynamicRelocations: DynamicRelocation[] = [];
  for (const rel of object.relocations.get(text.index) ?? []) {
    const reloc = applyRelocation(object, textBytes, rel, sectionAddr, textAddr);
    if (reloc === "relative") {
      dynamicRelocations.push({ offset: textAddr + rel.offset, type: R_BPF_64_RELATIVE, symbol: 0 });
    } else {
      if (!syscalls.has(reloc.syscall)) syscalls.set(reloc.syscall, syscalls.size + 1);
      const symbol = syscalls.get(reloc.syscall) ?? 0;
      dynamicRelocations.push({ offset: textAddr + rel.offset, type: R_BPF_64_32, symbol });
    }
  }
  dynamicRelocations.sort((a, b) => a.offset - b.offset);

  const entry = object.symbols.find((s) => s.name === entrySymbol && s.section === text.index);
  if (entry === undefined) throw new SbpfLinkError(`no function named ${entrySymbol} in .text`);
  const entryAddr = textAddr + entry.value;

  // Dynamic symbols: null, the syscalls in first-use order, then the entry point (for tools; the loader
  // takes the entry from the header).
  const symbolNames = [...syscalls.keys()].map((name) => dynstr.add(name));
  const entryName = dynstr.add(entrySymbol);
  const dynsym = new Uint8Array((symbolNames.length + 2) * SYMBOL_SIZE);
  symbolNames.forEach((nameOffset, i) =>
    writeSymbol(dynsym, (i + 1) * SYMBOL_SIZE, {
      nameOffset,
      info: (STB_GLOBAL << 4) | STT_NOTYPE,
      shndx: SHN_UNDEF,
      value: 0,
      size: 0,
    }),
  );
  writeSymbol(dynsym, (symbolNames.length + 1) * SYMBOL_SIZE, {
    nameOffset: entryName,
    info: (STB_GLOBAL << 4) | STT_FUNC,
    shndx: 1,
    value: entryAddr,
    size: 0,
  });
  const dynstrBytes = dynstr.bytes();
  const relDyn = new Uint8Array(dynamicRelocations.length * REL_SIZE);
  dynamicRelocations.forEach((r, i) => writeRel(relDyn, i * REL_SIZE, r));

  const dynamicAddr = align(rodataAddr + rodataSize, 8);
  const dynamicCount = dynamicRelocations.length > 0 ? 8 : 5;
  const dynsymAddr = dynamicAddr + dynamicCount * DYN_SIZE;
  const dynstrAddr = dynsymAddr + dynsym.length;
  const relDynAddr = align(dynstrAddr + dynstrBytes.length, 8);
  const dynamicEntries: [number, number][] = [
    [DT_SYMTAB, dynsymAddr],
    [DT_STRTAB, dynstrAddr],
    [DT_STRSZ, dynstrBytes.length],
    [DT_SYMENT, SYMBOL_SIZE],
  ];
  if (dynamicRelocations.length > 0) {
    dynamicEntries.push([DT_REL, relDynAddr], [DT_RELSZ, relDyn.length], [DT_RELENT, REL_SIZE]);
  }
  dynamicEntries.push([DT_NULL, 0]);
  const dynamic = new Uint8Array(dynamicCount * DYN_SIZE);
  dynamicEntries.forEach(([tag, value], i) => writeDynamic(dynamic, i * DYN_SIZE, tag, value));
  const loadEnd = relDynAddr + relDyn.length;

  const shstrtab = new StringTable();
  const sections: OutputSection[] = [
    {
      name: shstrtab.add(".text"),
      type: SHT_PROGBITS,
      flags: SHF_ALLOC | SHF_EXECINSTR,
      addr: textAddr,
      bytes: textBytes,
      align: 8,
    },
    {
      name: shstrtab.add(".rodata"),
      type: SHT_PROGBITS,
      flags: SHF_ALLOC,
      addr: rodataAddr,
      bytes: rodata,
      align: 8,
    },
    {
      name: shstrtab.add(".dynamic"),
      type: SHT_DYNAMIC,
      flags: SHF_ALLOC,
      addr: dynamicAddr,
      bytes: dynamic,
      align: 8,
      link: 5,
      entsize: DYN_SIZE,
    },
    {
      name: shstrtab.add(".dynsym"),
      type: SHT_DYNSYM,
      flags: SHF_ALLOC,
      addr: dynsymAddr,
      bytes: dynsym,
      align: 8,
      link: 5,
      info: 1,
      entsize: SYMBOL_SIZE,
    },
    {
      name: shstrtab.add(".dynstr"),
      type: SHT_STRTAB,
      flags: SHF_ALLOC,
      addr: dynstrAddr,
      bytes: dynstrBytes,
      align: 1,
    },
    {
      name: shstrtab.add(".rel.dyn"),
      type: SHT_REL,
      flags: SHF_ALLOC,
      addr: relDynAddr,
      bytes: relDyn,
      align: 8,
      link: 4,
      entsize: REL_SIZE,
    },
  ];
  const shstrtabName = shstrtab.add(".shstrtab");
  const shstrtabBytes = shstrtab.bytes();
  sections.push({
    name: shstrtabName,
    type: SHT_STRTAB,
    flags: 0,
    addr: 0,
    bytes: shstrtabBytes,
    align: 1,
    offset: loadEnd,
  });
  const shoff = align(loadEnd + shstrtabBytes.length, 8);
  const file = new Uint8Array(shoff + (sections.length + 1) * SECTION_HEADER_SIZE);
  const view = new DataView(file.buffer);

  writeElfHeader(view, {
    entry: entryAddr,
    phnum,
    shoff,
    shnum: sections.length + 1,
    shstrndx: sections.length,
  });
  const programHeaders: ProgramHeader[] = [
    { type: PT_LOAD, flags: PF_R | PF_X, offset: textAddr, size: text.size },
    { type: PT_LOAD, flags: PF_R, offset: rodataAddr, size: rodataSize },
    { type: PT_LOAD, flags: PF_R, offset: dynamicAddr, size: loadEnd - dynamicAddr },
    { type: PT_DYNAMIC, flags: PF_R, offset: dynamicAddr, size: dynamic.length },
  ];
  programHeaders.forEach((ph, i) => writeProgramHeader(view, ELF_HEADER_SIZE + i * PROGRAM_HEADER_SIZE, ph));
  sections.forEach((s, i) => {
    const offset = s.offset ?? s.addr;
    file.set(s.bytes, offset);
    writeSectionHeader(view, shoff + (i + 1) * SECTION_HEADER_SIZE, { ...s, offset });
  });
  return file;
}

function singleTextSection(object: ElfObject): ObjectSection {
  const executable = object.sections.filter((s) => (s.flags & BigInt(SHF_EXECINSTR)) !== 0n && s.size > 0);
  if (executable.length !== 1 || executable[0]?.name !== ".text") {
    const names = executable.map((s) => s.name).join(", ");
    throw new SbpfLinkError(`expected code in one .text section, found: ${names || "none"}`);
  }
  return executable[0];
}

function refuseMutableData(object: ElfObject): void {
  for (const s of object.sections) {
    const allocated = (s.flags & BigInt(SHF_ALLOC)) !== 0n;
    const writable = (s.flags & BigInt(SHF_WRITE)) !== 0n;
    if (allocated && (writable || s.type === SHT_NOBITS) && s.size > 0) {
      throw new SbpfLinkError(
        `section ${s.name} holds mutable data; sBPF programs cannot have writable globals`,
      );
    }
  }
}

/** Read-only data sections, each placed at its alignment one after the other. */
function rodataPieces(object: ElfObject): RodataPiece[] {
  const pieces: RodataPiece[] = [];
  let end = 0;
  for (const s of object.sections) {
    const isRodata = (s.flags & BigInt(SHF_ALLOC)) !== 0n && (s.flags & BigInt(SHF_EXECINSTR)) === 0n;
    if (!isRodata || s.size === 0) continue;
    if (!s.name.startsWith(".rodata")) throw new SbpfLinkError(`unexpected allocated section ${s.name}`);
    if ((object.relocations.get(s.index) ?? []).length > 0) {
      throw new SbpfLinkError(
        `${s.name} holds pointers (data relocations); keep addresses out of constant tables`,
      );
    }
    const at = align(end, s.align);
    pieces.push({ section: s, at });
    end = at + s.size;
  }
  return pieces;
}

function applyRelocation(
  object: ElfObject,
  text: Uint8Array,
  rel: ObjectRelocation,
  sectionAddr: Map<number, number>,
  textAddr: number,
): "relative" | { syscall: string } {
  const symbol = object.symbols[rel.symbol];
  if (symbol === undefined) throw new SbpfLinkError(`relocation at ${rel.offset} names no symbol`);
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  if (rel.offset + BPF_INSN_SIZE > text.length)
    throw new SbpfLinkError(`relocation at ${rel.offset} past .text`);
  const opcode = text[rel.offset];
  if (rel.type === R_BPF_64_64) {
    if (opcode !== BPF_LDDW_OPCODE || rel.offset + 2 * BPF_INSN_SIZE > text.length) {
      throw new SbpfLinkError(`R_BPF_64_64 at ${rel.offset} is not on an lddw`);
    }
    const base = sectionAddr.get(symbol.section);
    if (base === undefined)
      throw new SbpfLinkError(
        `lddw at ${rel.offset} refers to ${symbol.name || "a section"} outside .text/.rodata`,
      );
    const addend = view.getUint32(rel.offset + 4, true);
    const address = base + symbol.value + addend;
    view.setUint32(rel.offset + 4, address, true);
    view.setUint32(rel.offset + 12, 0, true);
    return "relative";
  }
  if (rel.type === R_BPF_64_32) {
    if (opcode !== BPF_CALL_OPCODE) throw new SbpfLinkError(`R_BPF_64_32 at ${rel.offset} is not on a call`);
    if (symbol.section === SHN_UNDEF) {
      if (!ALLOWED_SYSCALLS.has(symbol.name)) {
        throw new SbpfLinkError(
          `call to undefined ${symbol.name}: not a syscall this linker allows (${[...ALLOWED_SYSCALLS].join(", ")})`,
        );
      }
      view.setInt32(rel.offset + 4, -1, true);
      return { syscall: symbol.name };
    }
    const target = (sectionAddr.get(symbol.section) ?? -1) - textAddr + symbol.value;
    if (target < 0 || symbol.type !== STT_FUNC)
      throw new SbpfLinkError(`call at ${rel.offset} to ${symbol.name} outside .text`);
    view.setInt32(rel.offset + 4, (target - rel.offset - BPF_INSN_SIZE) / BPF_INSN_SIZE, true);
    return "relative";
  }
  throw new SbpfLinkError(`relocation type ${rel.type} at ${rel.offset} is not supported`);
}

interface OutputSection {
  name: number;
  type: number;
  flags: number;
  addr: number;
  bytes: Uint8Array;
  align: number;
  offset?: number;
  link?: number;
  info?: number;
  entsize?: number;
}

interface ProgramHeader {
  type: number;
  flags: number;
  offset: number;
  size: number;
}

function writeElfHeader(
  view: DataView,
  h: { entry: number; phnum: number; shoff: number; shnum: number; shstrndx: number },
): void {
  [0x7f, 0x45, 0x4c, 0x46, ELFCLASS64, ELFDATA2LSB, EV_CURRENT].forEach((b, i) => view.setUint8(i, b));
  view.setUint16(16, ET_DYN, true);
  view.setUint16(18, EM_BPF, true);
  view.setUint32(20, EV_CURRENT, true);
  view.setBigUint64(24, BigInt(h.entry), true);
  view.setBigUint64(32, BigInt(ELF_HEADER_SIZE), true);
  view.setBigUint64(40, BigInt(h.shoff), true);
  view.setUint32(48, 0, true); // e_flags 0: sBPF v0
  view.setUint16(52, ELF_HEADER_SIZE, true);
  view.setUint16(54, PROGRAM_HEADER_SIZE, true);
  view.setUint16(56, h.phnum, true);
  view.setUint16(58, SECTION_HEADER_SIZE, true);
  view.setUint16(60, h.shnum, true);
  view.setUint16(62, h.shstrndx, true);
}

function writeProgramHeader(view: DataView, at: number, ph: ProgramHeader): void {
  view.setUint32(at, ph.type, true);
  view.setUint32(at + 4, ph.flags, true);
  view.setBigUint64(at + 8, BigInt(ph.offset), true);
  view.setBigUint64(at + 16, BigInt(ph.offset), true);
  view.setBigUint64(at + 24, BigInt(ph.offset), true);
  view.setBigUint64(at + 32, BigInt(ph.size), true);
  view.setBigUint64(at + 40, BigInt(ph.size), true);
  view.setBigUint64(at + 48, 8n, true);
}

function writeSectionHeader(view: DataView, at: number, s: OutputSection & { offset: number }): void {
  view.setUint32(at, s.name, true);
  view.setUint32(at + 4, s.type, true);
  view.setBigUint64(at + 8, BigInt(s.flags), true);
  view.setBigUint64(at + 16, BigInt(s.addr), true);
  view.setBigUint64(at + 24, BigInt(s.offset), true);
  view.setBigUint64(at + 32, BigInt(s.bytes.length), true);
  view.setUint32(at + 40, s.link ?? 0, true);
  view.setUint32(at + 44, s.info ?? 0, true);
  view.setBigUint64(at + 48, BigInt(s.align), true);
  view.setBigUint64(at + 56, BigInt(s.entsize ?? 0), true);
}
