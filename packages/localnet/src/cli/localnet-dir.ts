/** The working directory of `solver localnet` and `solver demo`, and what goes into it. */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pino } from "pino";
import type { SolverConfig } from "htlc-solver/config/types.js";
import { createLogger, type Logger } from "htlc-solver/util/logger.js";
import type { OptionValues } from "htlc-solver/cli/command.js";
import { writeKeyFile, writeSolverProfile } from "htlc-solver/cli/solver-profile.js";

export const DEFAULT_LOCALNET_DIR = ".localnet";
export const LOCALNET_LOG_FILE = "solver.log";
export const LOCALNET_DESCRIPTOR_FILE = "localnet.json";
export const LOCALNET_PROFILE_FILE = "solver.json";
export const LOCALNET_KEY_FILE = "solver-keys.json";

export class NotALocalnetDirError extends Error {
  constructor(dir: string) {
    super(
      `${dir} holds files but no ${LOCALNET_DESCRIPTOR_FILE}; it does not look like a localnet directory, ` +
        "and starting a localnet empties its directory: choose a new or empty one with --dir",
    );
    this.name = "NotALocalnetDirError";
  }
}

export function localnetDirOf(values: OptionValues): string {
  const given = values.dir;
  return resolve(typeof given === "string" && given !== "" ? given : DEFAULT_LOCALNET_DIR);
}

/** Empties a previous localnet's directory (and only such a directory) and creates it. */
export function freshLocalnetDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!existsSync(join(dir, LOCALNET_DESCRIPTOR_FILE))) throw new NotALocalnetDirError(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
}

/** Every part's log lines (chains, service, solver) at info level, in `<dir>/solver.log`. */
export function localnetLogger(dir: string): Logger {
  // Synchronous writes: a Ctrl-C or a crash never loses the last lines.
  const destination = pino.destination({ dest: join(dir, LOCALNET_LOG_FILE), sync: true, mkdir: true });
  return createLogger({ level: "info", destination });
}

/** `<dir>/solver.json` with `<dir>/solver-keys.json`: the localnet's solver config for `--config`. */
export function writeLocalnetProfile(dir: string, config: SolverConfig): string {
  const keyFile = join(dir, LOCALNET_KEY_FILE);
  writeKeyFile(keyFile, config.solver.keys);
  const profile = join(dir, LOCALNET_PROFILE_FILE);
  writeSolverProfile(profile, config, { keyFile });
  return profile;
}
