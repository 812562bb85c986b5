import type { ChainConfigSpec } from "./chain-spec.js";
import { isRawObject, type RawObject } from "./raw.js";

/**
 * Keys that say the same thing in two forms (one URL, or a list of URLs), each to the other: a later
 * layer that sets one form replaces the earlier layer's value in the other, instead of leaving both for
 * validation to refuse. The chain families declare theirs (`EndpointVariable.replaces`).
 */
export type AlternativeForms = ReadonlyMap<string, string>;

export function alternativeForms(families: readonly ChainConfigSpec[]): AlternativeForms {
  return new Map(
    families.flatMap((family) =>
      family.endpointVariables.flatMap((v) =>
        v.replaces === undefined ? [] : [[v.key, v.replaces] as const],
      ),
    ),
  );
}

/** Field by which list elements are matched when a patch merges into a list, most specific first. */
const LIST_KEYS = ["name", "symbol"] as const;

/** The field to match by, or null to replace the list (also when the patch repeats a key, so validation sees it). */
function listKey(base: unknown[], patch: unknown[]): string | null {
  if (patch.length === 0 || base.length === 0) return null;
  for (const key of LIST_KEYS) {
    const keyed = (items: unknown[]) => items.every((i) => isRawObject(i) && typeof i[key] === "string");
    if (!keyed(patch) || !keyed(base)) continue;
    const names = (patch as RawObject[]).map((item) => item[key]);
    return new Set(names).size === names.length ? key : null;
  }
  return null;
}

function mergeList(base: unknown[], patch: unknown[], forms: AlternativeForms): unknown[] {
  const key = listKey(base, patch);
  if (key === null) return structuredClone(patch);
  const result = [...base];
  for (const item of patch as RawObject[]) {
    const index = result.findIndex((b) => (b as RawObject)[key] === item[key]);
    if (index >= 0) result[index] = mergeSettings(result[index], item, forms);
    else result.push(structuredClone(item));
  }
  return result;
}

/**
 * Deep merge of `patch` over `base`. Objects merge key by key. Lists of chains (matched by `name`) and of
 * assets (by `symbol`) merge element by element, so an override can set one chain's RPC URL or one
 * asset's contract address; any other list is replaced. `undefined` in the patch leaves `base` alone.
 * Setting one of two alternative `forms` drops the other from `base`.
 */
export function mergeSettings(base: unknown, patch: unknown, forms: AlternativeForms): unknown {
  if (patch === undefined) return base;
  if (isRawObject(base) && isRawObject(patch)) {
    const result: RawObject = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      const other = forms.get(key);
      if (other !== undefined && value !== undefined && !(other in patch)) delete result[other];
      result[key] = mergeSettings(base[key], value, forms);
    }
    return result;
  }
  if (Array.isArray(base) && Array.isArray(patch)) return mergeList(base, patch, forms);
  return structuredClone(patch);
}
