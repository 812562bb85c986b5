/** The solver's keys as the environment variables a `solver run` process reads them from, one per family. */
import { CHAIN_FAMILIES, type SolverKeys } from "../../src/chains/registry.js";

export function solverKeyEnv(keys: SolverKeys): Record<string, string> {
  return Object.fromEntries(CHAIN_FAMILIES.map((family) => [family.key.env, keys[family.name]]));
}
