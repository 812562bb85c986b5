/**
 * Checks raw input (a file, overrides) against the schema's shape before convict merges it, and checks
 * every scalar setting's value afterwards. Structures (chains, strategies, maps) are checked by zod schemas (`sections/`, `chains.ts`).
 */
import type { Problems } from "./errors.js";
import { FORMATS } from "./formats.js";
import { isSetting, type SettingGroup, type SettingSpec } from "./schema.js";
import { describeValue } from "./checks.js";
import { isRawObject, keyPath, type RawObject } from "./raw.js";

function fitsSetting(spec: SettingSpec, value: unknown): string | null {
  if (spec.format === Array) return Array.isArray(value) ? null : `${describeValue(value)} must be an array`;
  if (spec.format === Object) return isRawObject(value) ? null : `${describeValue(value)} must be an object`;
  if (Array.isArray(value) || isRawObject(value)) return `${describeValue(value)} must be a single value`;
  return null;
}

/** A copy of `raw` without what cannot fit the schema; each dropped key is reported. */
export function fitToSchema(
  problems: Problems,
  raw: RawObject,
  source: string,
  group: SettingGroup,
  prefix = "",
): RawObject {
  const fitted: RawObject = {};
  for (const [key, value] of Object.entries(raw)) {
    const path = keyPath(prefix, key);
    const node = Object.prototype.hasOwnProperty.call(group, key) ? group[key] : undefined;
    if (node === undefined) {
      problems.add(path, `is not a known setting (in ${source})`);
    } else if (isSetting(node)) {
      const problem = fitsSetting(node, value);
      if (problem === null) fitted[key] = value;
      else problems.add(path, `${problem} (in ${source})`);
    } else if (isRawObject(value)) {
      fitted[key] = fitToSchema(problems, value, source, node, path);
    } else {
      problems.add(
        path,
        `${describeValue(value)} must be an object with ${Object.keys(node).join(", ")} (in ${source})`,
      );
    }
  }
  return fitted;
}

/** Runs every scalar setting's format over the merged settings. */
export function checkScalarSettings(
  problems: Problems,
  raw: RawObject,
  group: SettingGroup,
  prefix = "",
): void {
  for (const [key, node] of Object.entries(group)) {
    const path = keyPath(prefix, key);
    const value = raw[key];
    if (!isSetting(node)) {
      checkScalarSettings(problems, isRawObject(value) ? value : {}, node, path);
      continue;
    }
    if (typeof node.format !== "string") continue;
    const problem = FORMATS[node.format].validate(value);
    if (problem === null) continue;
    const hint =
      problem === "is required" && node.env !== undefined
        ? `; set ${node.env} or ${path} in the config file`
        : "";
    problems.add(path, problem + hint);
  }
}

/** Removes `//` comment keys at any depth, so profile files can carry notes. */
export function stripComments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripComments);
  if (!isRawObject(value)) return value;
  const result: RawObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!key.startsWith("//")) result[key] = stripComments(inner);
  }
  return result;
}
