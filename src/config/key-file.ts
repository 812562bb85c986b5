/**
 * The key file: JSON `{ "evm": "<hex>", "bitcoin": "<hex>", "solana": "<base58>" }`, every key optional. Like ssh with its
 * identity files, the loader refuses a file that group or others can access. Messages never quote contents.
 */
import { readFileSync, statSync } from "node:fs";
import type { Problems } from "./errors.js";
import { isRawObject } from "./validate/fields.js";

export interface KeyFileKeys {
  evm?: string;
  bitcoin?: string;
  solana?: string;
}

const ENTRIES = ["evm", "bitcoin", "solana"] as const;
const SHAPE = '{"evm": "<hex>", "bitcoin": "<hex>", "solana": "<base58>"}';

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

function parseKeys(path: string, text: string, problems: Problems): KeyFileKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.add(KEY, `${path} is not valid JSON (expected ${SHAPE})`);
    return {};
  }
  if (!isRawObject(parsed)) {
    problems.add(KEY, `${path} must hold a JSON object ${SHAPE}`);
    return {};
  }
  const keys: KeyFileKeys = {};
  for (const [name, value] of Object.entries(parsed)) {
    const entry = ENTRIES.find((e) => e === name);
    if (entry === undefined) {
      problems.add(KEY, `${path} has an unknown entry "${name}" (only ${ENTRIES.join(", ")})`);
    } else if (typeof value !== "string") {
      problems.add(KEY, `${path}: entry "${name}" must be a string`);
    } else {
      keys[entry] = value;
    }
  }
  return keys;
}

export function readKeyFile(path: string, problems: Problems): KeyFileKeys {
  const problem = permissionProblem(path);
  if (problem !== null) {
    problems.add(KEY, problem);
    return {};
  }
  return parseKeys(path, readFileSync(path, "utf8"), problems);
}
