import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshLocalnetDir, NotALocalnetDirError } from "../../../src/cli/localnet-dir.js";

describe("freshLocalnetDir", () => {
  it("creates a new directory and empties a previous localnet's", () => {
    const root = mkdtempSync(join(tmpdir(), "lnd-"));
    const dir = join(root, "a", ".localnet");
    freshLocalnetDir(dir);
    expect(existsSync(dir)).toBe(true);
    writeFileSync(join(dir, "localnet.json"), "{}");
    writeFileSync(join(dir, "solver.sqlite"), "");
    freshLocalnetDir(dir);
    expect(existsSync(join(dir, "solver.sqlite"))).toBe(false);
    expect(existsSync(dir)).toBe(true);
  });

  it("refuses to empty a directory that holds files but no localnet descriptor", () => {
    const dir = mkdtempSync(join(tmpdir(), "lnd-"));
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "notes.txt"), "keep me");
    expect(() => freshLocalnetDir(dir)).toThrow(NotALocalnetDirError);
    expect(existsSync(join(dir, "notes.txt"))).toBe(true);
  });
});
