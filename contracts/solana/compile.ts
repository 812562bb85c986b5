/**
 * Builds the Solana HTLC programs: clang-19 compiles each C program to a BPF object, the project's sBPF
 * linker (linker/) turns it into a loadable program. The output depends only on the sources, the
 * compiler version and the flags, so a rebuild reproduces the committed bytes exactly.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readElfObject } from "./linker/elf-object.js";
import { linkSbpf } from "./linker/sbpf-linker.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = join(HERE, "src");
export const BUILD_DIR = join(HERE, "build");

/** The programs and the C file each is built from. */
export const PROGRAMS = [
  { name: "native_swaps", source: "native_swaps.c" },
  { name: "spl_swaps", source: "spl_swaps.c" },
  { name: "legacy_native_swaps", source: "legacy_native_swaps.c" },
  { name: "legacy_spl_swaps", source: "legacy_spl_swaps.c" },
] as const;

export type ProgramName = (typeof PROGRAMS)[number]["name"];

export const CLANG = process.env.SOLANA_PROGRAMS_CLANG ?? "clang-19";
export const CLANG_FLAGS = [
  "-target",
  "bpfel",
  "-mcpu=v2",
  "-O2",
  "-ffreestanding",
  "-fno-builtin",
  "-mllvm",
  "-bpf-stack-size=4096",
  "-Wall",
  "-Wextra",
  "-Werror",
  // No file names or directories in the object: the build is the same from any checkout path.
  "-fno-ident",
  "-ffile-prefix-map=" + HERE + "=.",
];

export class ProgramBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProgramBuildError";
  }
}

export interface BuiltProgram {
  name: ProgramName;
  path: string;
  size: number;
}

/** Compiles and links every program into `outDir` (default: contracts/solana/build). */
export function buildPrograms(outDir: string = BUILD_DIR): BuiltProgram[] {
  assertClang();
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "sbpf-"));
  try {
    return PROGRAMS.map(({ name, source }) => {
      const objectPath = join(scratch, `${name}.o`);
      execFileSync(CLANG, [...CLANG_FLAGS, "-c", join(SOURCE_DIR, source), "-o", objectPath], {
        cwd: HERE,
        stdio: ["ignore", "inherit", "inherit"],
      });
      const program = linkSbpf(readElfObject(readFileSync(objectPath)));
      const path = join(outDir, `${name}.so`);
      writeFileSync(path, program);
      return { name, path, size: program.length };
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function assertClang(): void {
  try {
    execFileSync(CLANG, ["--version"], { stdio: "ignore" });
  } catch {
    throw new ProgramBuildError(
      `${CLANG} not found: install it (Debian: apt-get install -y clang-19) or set SOLANA_PROGRAMS_CLANG`,
    );
  }
}
