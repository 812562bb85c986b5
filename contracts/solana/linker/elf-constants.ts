/** ELF numbers the object reader and the sBPF linker use (from the ELF-64 and eBPF psABI documents). */
export const ELF_HEADER_SIZE = 64;
export const PROGRAM_HEADER_SIZE = 56;
export const SECTION_HEADER_SIZE = 64;
export const SYMBOL_SIZE = 24;
export const REL_SIZE = 16;
export const DYN_SIZE = 16;

export const ELFCLASS64 = 2;
export const ELFDATA2LSB = 1;
export const EV_CURRENT = 1;
export const ET_REL = 1;
export const ET_DYN = 3;
export const EM_BPF = 247;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNAMIC = 6;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;

export const SHN_UNDEF = 0;

export const STB_GLOBAL = 1;
export const STT_NOTYPE = 0;
export const STT_FUNC = 2;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PF_X = 1;
export const PF_R = 4;

export const DT_NULL = 0;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;

/** `lddw` of a 64-bit immediate: the loader adds the read-only region's base to the address it holds. */
export const R_BPF_64_64 = 1;
/** Emitted by the linker for every `lddw` of a data address. */
export const R_BPF_64_RELATIVE = 8;
/** A call: pc-relative inside the program, or a syscall resolved by the hash of its name. */
export const R_BPF_64_32 = 10;

export const BPF_INSN_SIZE = 8;
export const BPF_CALL_OPCODE = 0x85;
export const BPF_LDDW_OPCODE = 0x18;
