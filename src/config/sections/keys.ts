/**
 * Private keys, one per chain family, each in its family's one stored form (`KeySpec.normalize`); each is
 * required only when a chain of its family is configured, and is "" otherwise. Messages never show a key.
 */
import type { ChainConfigSpec } from "../chain-spec.js";
import type { Problems } from "../errors.js";

function resolveKey(problems: Problems, family: ChainConfigSpec, value: string, needed: boolean): string {
  const path = `solver.keys.${family.name}`;
  if (value === "") {
    if (needed) {
      problems.add(
        path,
        `is required for the ${family.name} chains; set ${family.key.env} or put it in the key file (SOLVER_KEY_FILE)`,
      );
    }
    return "";
  }
  const normalized = family.key.normalize(value);
  if ("problem" in normalized) {
    problems.add(path, normalized.problem);
    return "";
  }
  return normalized.value;
}

/** The keys by family name; `chainFamilies` are the families of the configured chains. */
export function resolveKeys(
  problems: Problems,
  raw: Readonly<Record<string, string>>,
  chainFamilies: ReadonlySet<string>,
  families: readonly ChainConfigSpec[],
): Record<string, string> {
  return Object.fromEntries(
    families.map((family) => [
      family.name,
      resolveKey(problems, family, raw[family.name] ?? "", chainFamilies.has(family.name)),
    ]),
  );
}
