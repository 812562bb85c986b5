/**
 * The key file: JSON with one entry per chain family, named after it (`{ "evm": "<hex>", ... }`), every
 * entry optional. Like ssh with its identity files, the loader refuses a file that group or others can
 * access. Messages never quote contents.
 */
import { readFileSync, statSync } from "node:fs";
import type { ChainConfigSpec } from "./chain-spec.js";
import type { Problems } from "./errors.js";
import { isRawObject } from "./raw.js";

/** The keys the file holds, by family name. */
export type KeyFileKeys = Partial<Record<string, string>>;

const KEY = "solver.keyFile";

function permissionProblem(path: string): string | null {
  let mode: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `${path} is not a file`;
    mode = stat.mode;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${path} does not exist` : `${path} cannot be read (${code ?? "error"})`;
  }
  if ((mode & 0o077) === 0) return null;
  const octal = (mode & 0o777).toString(8).padStart(4, "0");
  return `${path} is readable by group or others (mode ${octal}); restrict it with: chmod 600 ${path}`;
}

function parseKeys(path: string, text: string, problems: Problems, families: readonly ChainConfigSpec[]) {
  const entries = families.map((family) => family.name);
  const shape = `{${families.map((f) => `"${f.name}": "${f.key.keyFileForm}"`).join(", ")}}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.add(KEY, `${path} is not valid JSON (expected ${shape})`);
    return {};
  }
  if (!isRawObject(parsed)) {
    problems.add(KEY, `${path} must hold a JSON object ${shape}`);
    return {};
  }
  const keys: KeyFileKeys = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!entries.includes(name)) {
      problems.add(KEY, `${path} has an unknown entry "${name}" (only ${entries.join(", ")})`);
    } else if (typeof value !== "string") {
      problems.add(KEY, `${path}: entry "${name}" must be a string`);
    } else {
      keys[name] = value;
    }
  }
  return keys;
}

export function readKeyFile(
  path: string,
  problems: Problems,
  families: readonly ChainConfigSpec[],
): KeyFileKeys {
  const problem = permissionProblem(path);
  if (problem !== null) {
    problems.add(KEY, problem);
    return {};
  }
  return parseKeys(path, readFileSync(path, "utf8"), problems, families);
}
