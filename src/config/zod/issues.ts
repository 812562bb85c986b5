/** Zod's issues as the configuration's problems: `<key path>: <what is wrong>`. */
import type { z } from "zod";
import type { Problems } from "../errors.js";

/**
 * A key of a map whose keys are data (asset ids), written as `["<key>"]` in a path; a key of an object
 * of settings is written `.key`.
 */
export function mapKey(key: string): string {
  return `[${JSON.stringify(key)}]`;
}

function pathText(base: string, path: readonly PropertyKey[]): string {
  let text = base;
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (String(key).startsWith("[")) text += String(key);
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** Adds each issue to `problems`, its path under `base`; unknown keys are reported one by one. */
export function addIssues(problems: Problems, base: string, issues: readonly z.core.$ZodIssue[]): void {
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) problems.add(pathText(base, [...issue.path, key]), issue.message);
    } else {
      problems.add(pathText(base, issue.path), issue.message);
    }
  }
}

/** Parses `raw` with `schema`, adding every issue to `problems`; the value holds placeholders where one failed. */
export function parseSettings<T>(
  problems: Problems,
  base: string,
  schema: z.ZodType<T, unknown>,
  raw: unknown,
): T | undefined {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  addIssues(problems, base, result.error.issues);
  return undefined;
}
