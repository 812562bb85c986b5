/** The `--config FILE` option every command that needs the configuration shares. */
import { CHAIN_FAMILIES } from "../chains/registry.js";
import { loadConfig } from "../config/load.js";
import type { SolverConfig } from "../config/types.js";
import type { CliIo, CommandOptions, OptionValues } from "./command.js";

export const CONFIG_OPTION = { config: { type: "string", short: "c" } } satisfies CommandOptions;

export const CONFIG_OPTION_HELP =
  "  -c, --config FILE   JSON profile (default: $SOLVER_CONFIG; without either, defaults and environment only)";

/** The profile path named by --config, else by SOLVER_CONFIG; undefined when neither is given. */
export function configFileOf(values: OptionValues, io: CliIo): string | undefined {
  const fromOption = values.config;
  if (typeof fromOption === "string" && fromOption !== "") return fromOption;
  const fromEnv = io.env.SOLVER_CONFIG;
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

/** Loads the configuration for a command; a ConfigError propagates and the CLI prints its problems. */
export function loadCliConfig(
  values: OptionValues,
  io: CliIo,
  overrides?: Record<string, unknown>,
): SolverConfig {
  const file = configFileOf(values, io);
  return loadConfig(CHAIN_FAMILIES, {
    env: io.env,
    ...(file === undefined ? {} : { file }),
    ...(overrides === undefined ? {} : { overrides }),
  });
}
