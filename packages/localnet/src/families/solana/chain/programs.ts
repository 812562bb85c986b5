/** The committed builds of the project's Solana HTLC programs (contracts/solana/build of the product). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const PRODUCT_ROOT = dirname(createRequire(import.meta.url).resolve("htlc-solver/package.json"));
const BUILD_DIR = join(PRODUCT_ROOT, "contracts", "solana", "build");

export type HtlcProgramName = "native_swaps" | "spl_swaps" | "legacy_native_swaps" | "legacy_spl_swaps";

export function htlcProgramPath(name: HtlcProgramName): string {
  return join(BUILD_DIR, `${name}.so`);
}

export function htlcProgramBytes(name: HtlcProgramName): Uint8Array {
  return new Uint8Array(readFileSync(htlcProgramPath(name)));
}
