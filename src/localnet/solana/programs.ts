/** The committed builds of the project's Solana HTLC programs (contracts/solana/build). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BUILD_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "contracts",
  "solana",
  "build",
);

export type HtlcProgramName = "native_swaps" | "spl_swaps";

export function htlcProgramPath(name: HtlcProgramName): string {
  return join(BUILD_DIR, `${name}.so`);
}

export function htlcProgramBytes(name: HtlcProgramName): Uint8Array {
  return new Uint8Array(readFileSync(htlcProgramPath(name)));
}
