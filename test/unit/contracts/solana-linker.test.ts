/** The sBPF linker: the committed programs are well-formed sBPF v0, and the linker refuses what v0 cannot load. */
import { Keypair, Transaction, TransactionInstruction } from "@solana/web3.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FailedTransactionMetadata } from "litesvm";
import { afterAll, describe, expect, it } from "vitest";
import { CLANG, CLANG_FLAGS } from "../../../contracts/solana/compile.js";
import { readElfObject } from "../../../contracts/solana/linker/elf-object.js";
import { ALLOWED_SYSCALLS, SbpfLinkError, linkSbpf } from "../../../contracts/solana/linker/sbpf-linker.js";
import { htlcProgramPath } from "@htlc-solver/localnet/families/solana/chain/programs.js";
import { LocalSvm } from "@htlc-solver/localnet/families/solana/chain/svm.js";

interface Section {
  name: string;
  type: number;
  addr: number;
  offset: number;
  size: number;
}

function sections(so: Uint8Array): Section[] {
  const v = new DataView(so.buffer, so.byteOffset, so.byteLength);
  const shoff = Number(v.getBigUint64(40, true));
  const count = v.getUint16(60, true);
  const names = shoff + v.getUint16(62, true) * 64;
  const namesOffset = Number(v.getBigUint64(names + 24, true));
  return Array.from({ length: count }, (_, i) => {
    const at = shoff + i * 64;
    let end = namesOffset + v.getUint32(at, true);
    const start = end;
    while (so[end] !== 0) end++;
    return {
      name: Buffer.from(so.subarray(start, end)).toString(),
      type: v.getUint32(at + 4, true),
      addr: Number(v.getBigUint64(at + 16, true)),
      offset: Number(v.getBigUint64(at + 24, true)),
      size: Number(v.getBigUint64(at + 32, true)),
    };
  });
}

describe.each(["native_swaps", "spl_swaps"] as const)("committed %s.so", (name) => {
  const so = new Uint8Array(readFileSync(htlcProgramPath(name)));
  const v = new DataView(so.buffer);
  const list = sections(so);
  const byName = (n: string) => list.find((s) => s.name === n);

  it("is an sBPF v0 shared object with address == offset for every loaded section", () => {
    expect(v.getUint16(16, true)).toBe(3); // ET_DYN
    expect(v.getUint16(18, true)).toBe(247); // EM_BPF
    expect(v.getUint32(48, true)).toBe(0); // e_flags: sBPF v0
    for (const s of list.filter((x) => x.addr !== 0)) expect(s.addr).toBe(s.offset);
    expect(list.filter((s) => s.name === ".text")).toHaveLength(1);
    expect(list.some((s) => s.name.startsWith(".data") || s.name.startsWith(".bss"))).toBe(false);
    const text = byName(".text");
    const entry = Number(v.getBigUint64(24, true));
    expect(text && entry >= text.addr && entry < text.addr + text.size).toBe(true);
  });

  it("relocates lddw with R_BPF_64_RELATIVE and syscalls with R_BPF_64_32 against allowed names", () => {
    const text = byName(".text");
    const rel = byName(".rel.dyn");
    const dynsym = byName(".dynsym");
    const dynstr = byName(".dynstr");
    if (!text || !rel || !dynsym || !dynstr) throw new Error("missing dynamic sections");
    let relative = 0;
    let calls = 0;
    for (let at = rel.offset; at < rel.offset + rel.size; at += 16) {
      const offset = Number(v.getBigUint64(at, true));
      const info = v.getBigUint64(at + 8, true);
      expect(offset >= text.addr && offset < text.addr + text.size).toBe(true);
      if ((info & 0xffffffffn) === 8n) {
        relative++;
        expect(so[offset]).toBe(0x18); // lddw
        const target = v.getUint32(offset + 4, true);
        expect(target).toBeGreaterThan(text.addr); // a data address inside the file
        expect(target).toBeLessThan(so.length);
      } else {
        expect(info & 0xffffffffn).toBe(10n);
        calls++;
        expect(so[offset]).toBe(0x85); // call
        expect(v.getInt32(offset + 4, true)).toBe(-1);
        const symbol = Number(info >> 32n);
        let end = dynstr.offset + v.getUint32(dynsym.offset + symbol * 24, true);
        const start = end;
        while (so[end] !== 0) end++;
        expect(ALLOWED_SYSCALLS.has(Buffer.from(so.subarray(start, end)).toString())).toBe(true);
      }
    }
    expect(relative).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(0);
  });
});

let clang = true;
try {
  execFileSync(CLANG, ["--version"], { stdio: "ignore" });
} catch {
  clang = false;
}

describe.skipIf(!clang)("linking C snippets", () => {
  const dir = mkdtempSync(join(tmpdir(), "sbpf-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function link(source: string): Uint8Array {
    const c = join(dir, "p.c");
    const o = join(dir, "p.o");
    writeFileSync(c, `#include <stdint.h>\nvoid sol_log_(const char *m, uint64_t n);\n${source}`);
    execFileSync(CLANG, [...CLANG_FLAGS, "-c", c, "-o", o]);
    return linkSbpf(readElfObject(readFileSync(o)));
  }

  it("links a program that loads and runs in the SVM, with its string from .rodata", () => {
    const so = link(
      `uint64_t entrypoint(const uint8_t *input) { (void)input; sol_log_("linked by the project", 21); return 0; }`,
    );
    const programId = Keypair.generate().publicKey;
    writeFileSync(join(dir, "p.so"), so);
    const svm = new LocalSvm({ programs: {} });
    const payer = Keypair.generate();
    svm.airdrop(payer.publicKey, 1_000_000_000n);
    svm.addProgram(programId, so);
    const tx = new Transaction().add(
      new TransactionInstruction({ programId, keys: [], data: Buffer.alloc(0) }),
    );
    tx.feePayer = payer.publicKey;
    tx.recentBlockhash = svm.latestBlockhash();
    tx.sign(payer);
    const result = svm.send(tx.serialize());
    expect(result).not.toBeInstanceOf(FailedTransactionMetadata);
    const meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
    expect(meta.logs()).toContain("Program log: linked by the project");
  });

  it("refuses writable globals", () => {
    expect(() =>
      link(`uint64_t counter;\nuint64_t entrypoint(const uint8_t *i) { (void)i; return ++counter; }`),
    ).toThrow(/mutable data/);
  });

  it("refuses calls to functions that are not allowed syscalls", () => {
    expect(() =>
      link(`void abort(void);\nuint64_t entrypoint(const uint8_t *i) { if (i == 0) abort(); return 0; }`),
    ).toThrow(SbpfLinkError);
  });

  it("refuses pointers inside read-only data", () => {
    const source = `static const char *const names[2] = {"a", "b"};
uint64_t entrypoint(const uint8_t *i) { const char *n = names[i[0] & 1]; sol_log_(n, 1); return 0; }`;
    expect(() => link(source)).toThrow(/pointers/);
  });
});
