/**
 * The shape of a CLI command. Each command lives in its own file under src/cli/commands/ and exports
 * `command`; the CLI finds it there, so adding a command touches no other file.
 */
import type { ParseArgsConfig } from "node:util";

export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/** Where a command writes and what environment it reads; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandInput {
  values: OptionValues;
  positionals: string[];
  io: CliIo;
}

export interface CliCommand {
  name: string;
  /** One line for `solver --help`. */
  summary: string;
  /** Full text of `solver <name> --help`, starting with its usage line. */
  help: string;
  /** node:util parseArgs options; `--help`/`-h` is added by the CLI. */
  options: CommandOptions;
  /** Resolves to the process exit code: 0 success, 1 failure, 2 usage or configuration error. */
  run(input: CommandInput): Promise<number>;
}

/** Thrown by a command for wrong arguments: the CLI prints the message and the command's help, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
