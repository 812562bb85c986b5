/**
 * The solver's one command-line entry: `solver <command> [options]`. Commands are discovered from
 * src/cli/commands/. `runCli` returns the exit code instead of exiting, so tests call it directly.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  type CliCommand,
  type CliIo,
  type OptionValues,
} from "./cli/command.js";
import { discoverCommands } from "./cli/discover.js";
import { ConfigError } from "./config/errors.js";
import { redactUrlsInText } from "./config/redact-url.js";

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
  env: process.env,
};

export function usage(commands: readonly CliCommand[]): string {
  const width = Math.max(8, ...commands.map((c) => c.name.length)) + 2;
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
  return [
    "Usage: solver <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `solver <command> --help` for the options of a command; `solver --version` for the build.",
  ].join("\n");
}

function parseCommandArgs(
  command: CliCommand,
  args: string[],
): { values: OptionValues; positionals: string[] } {
  const { values, positionals } = parseArgs({
    args,
    options: { ...command.options, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  return { values: values as OptionValues, positionals };
}

async function runCommand(command: CliCommand, args: string[], io: CliIo): Promise<number> {
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    parsed = parseCommandArgs(command, args);
  } catch (error) {
    io.stderr(`solver ${command.name}: ${(error as Error).message}\n\n${command.help}`);
    return EXIT_USAGE;
  }
  if (parsed.values.help === true) {
    io.stdout(command.help);
    return EXIT_OK;
  }
  try {
    return await command.run({ values: parsed.values, positionals: parsed.positionals, io });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`solver ${command.name}: ${error.message}\n\n${command.help}`);
      return EXIT_USAGE;
    }
    if (error instanceof ConfigError) {
      io.stderr(error.message);
      return EXIT_USAGE;
    }
    io.stderr(`solver ${command.name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}

export interface RunCliOptions {
  io?: CliIo;
  /** The commands to offer; discovered from src/cli/commands/ when absent. */
  commands?: CliCommand[];
}

/** Everything a command prints shows URLs as scheme, host and port only: an error may quote an RPC URL. */
function redactingIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(redactUrlsInText(text)),
    stderr: (text) => io.stderr(redactUrlsInText(text)),
  };
}

/** Runs one command line (without the `node` and script arguments) and resolves to its exit code. */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const io = redactingIo(options.io ?? processIo);
  const commands = options.commands ?? (await discoverCommands());
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(usage(commands));
    return EXIT_USAGE;
  }
  if (first === "--help" || first === "-h" || (first === "help" && rest.length === 0)) {
    io.stdout(usage(commands));
    return EXIT_OK;
  }
  if (first === "--version" || first === "-V") return runVersion(commands, rest, io);
  const helpFor = first === "help" ? rest[0] : undefined;
  const name = helpFor ?? first;
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`solver: unknown command "${name}"\n\n${usage(commands)}`);
    return EXIT_USAGE;
  }
  return runCommand(command, helpFor === undefined ? rest : ["--help"], io);
}

/** `solver --version` is `solver version`. */
function runVersion(commands: readonly CliCommand[], rest: string[], io: CliIo): Promise<number> {
  const version = commands.find((c) => c.name === "version");
  if (version === undefined) {
    io.stderr("solver: this build has no version command");
    return Promise.resolve(EXIT_USAGE);
  }
  return runCommand(version, rest, io);
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv);
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
