/**
 * `npm run check:programs`: rebuilds the Solana programs into a temporary directory and fails when any
 * byte differs from the committed contracts/solana/build/*.so, so the committed programs always are
 * what the sources build to.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD_DIR, buildPrograms } from "./compile.js";

const scratch = mkdtempSync(join(tmpdir(), "sbpf-check-"));
try {
  const stale: string[] = [];
  for (const program of buildPrograms(scratch)) {
    const committedPath = join(BUILD_DIR, `${program.name}.so`);
    let committed: Buffer | undefined;
    try {
      committed = readFileSync(committedPath);
    } catch {
      committed = undefined;
    }
    const rebuilt = readFileSync(program.path);
    if (committed === undefined || !committed.equals(rebuilt)) stale.push(committedPath);
    else console.log(`${program.name.padEnd(20)} ${String(rebuilt.length).padStart(7)} bytes  identical`);
  }
  if (stale.length > 0) {
    console.error(
      `the sources build to other bytes than: ${stale.join(", ")}; run npm run build:programs and commit`,
    );
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
