/** Finds the commands: every module in src/cli/commands/ that exports `command`. */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CliCommand } from "./command.js";

const COMMANDS_DIR = new URL("./commands/", import.meta.url);

function isCommandModule(file: string): boolean {
  return /\.(ts|js|mjs)$/.test(file) && !/\.d\.ts$/.test(file) && !/\.test\./.test(file);
}

function isCliCommand(value: unknown): value is CliCommand {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<CliCommand>;
  return typeof candidate.name === "string" && typeof candidate.run === "function";
}

export async function discoverCommands(dir: URL = COMMANDS_DIR): Promise<CliCommand[]> {
  const path = fileURLToPath(dir);
  const commands: CliCommand[] = [];
  for (const file of readdirSync(path).filter(isCommandModule).sort()) {
    const module = (await import(pathToFileURL(`${path}/${file}`).href)) as { command?: unknown };
    if (!isCliCommand(module.command)) {
      throw new Error(
        `${path}/${file} does not export a CLI command as \`command\` (name, summary, help, options, run)`,
      );
    }
    const name = module.command.name;
    if (commands.some((c) => c.name === name))
      throw new Error(`two command files define the command "${name}"`);
    commands.push(module.command);
  }
  return commands.sort((a, b) => a.name.localeCompare(b.name));
}
