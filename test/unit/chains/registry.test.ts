import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";

const FAMILY_NAMES = CHAIN_FAMILIES.map((family) => family.name);
/** Folders whose code serves every family alike (src/chains/*.ts and src/chains/rpc are listed apart). */
const GENERIC = ["config", "solver", "pnl", "journal", "app", "ops", "pricing", "cli", "orderbook", "util"];

function tsFiles(dir: string, recursive = true): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return recursive ? tsFiles(path) : [];
    return path.endsWith(".ts") ? [path] : [];
  });
}

const genericFiles = [
  ...GENERIC.flatMap((dir) => tsFiles(join("src", dir))),
  ...tsFiles("src/chains", false).filter((path) => !path.endsWith("registry.ts")),
  ...tsFiles("src/chains/rpc"),
];

/** The file's code without its comments, line by line. */
function codeLines(path: string): string[] {
  const text = readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return text.split("\n").map((line) => line.replace(/\/\/.*$/, ""));
}

describe("the chain family registry", () => {
  it("lists each family once", () => {
    expect(new Set(FAMILY_NAMES).size).toBe(FAMILY_NAMES.length);
  });

  it("is the only generic module that imports from inside a family folder", () => {
    const inside = new RegExp(`from "[./]*(chains/)?(${FAMILY_NAMES.join("|")})/`);
    const offending = genericFiles.filter((path) => codeLines(path).some((line) => inside.test(line)));
    expect(offending).toEqual([]);
  });

  it("leaves generic code without a family's name to branch on", () => {
    const named = new RegExp(`["'\`](${FAMILY_NAMES.join("|")})["'\`]`);
    const offending = genericFiles.flatMap((path) =>
      codeLines(path)
        .filter((line) => named.test(line))
        .map((line) => `${path}: ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });
});
