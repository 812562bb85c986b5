/**
 * A SolverConfig written back as a profile file that loadConfig reads: what `solver localnet` leaves in
 * `<dir>/solver.json`, so that `solver run|status --config` work against the same localnet.
 */
import { writeFileSync } from "node:fs";
import type { SolverConfig } from "../config/types.js";

export interface ProfileOptions {
  /** Sets solver.keyFile; without it the keys must come from the environment. */
  keyFile?: string;
}

/** The config as profile settings: private keys left out (never in a profile), bigints as strings. */
export function solverProfile(config: SolverConfig, options: ProfileOptions = {}): Record<string, unknown> {
  const { keys: _keys, ...solver } = config.solver;
  const profile = {
    ...config,
    solver: { ...solver, ...(options.keyFile === undefined ? {} : { keyFile: options.keyFile }) },
  };
  return JSON.parse(
    JSON.stringify(profile, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)),
  ) as Record<string, unknown>;
}

/** Writes the profile readable by its owner only: it holds the service app id. */
export function writeSolverProfile(path: string, config: SolverConfig, options: ProfileOptions = {}): void {
  writeFileSync(path, `${JSON.stringify(solverProfile(config, options), null, 2)}\n`, { mode: 0o600 });
}

/** Writes the solver's keys as a key file (mode 600, as the loader demands). */
export function writeKeyFile(path: string, keys: SolverConfig["solver"]["keys"]): void {
  const entries = Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== ""));
  writeFileSync(path, `${JSON.stringify(entries)}\n`, { mode: 0o600 });
}
