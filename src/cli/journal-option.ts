/** How the journal-reading commands (status, orders, journal) find and open the journal. */
import { existsSync } from "node:fs";
import { Journal } from "../journal/journal.js";
import { UsageError, type CliIo, type CommandOptions, type OptionValues } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadCliConfig } from "./config-option.js";

export const JOURNAL_OPTIONS = {
  ...CONFIG_OPTION,
  journal: { type: "string", short: "j" },
  json: { type: "boolean" },
} satisfies CommandOptions;

export const JOURNAL_OPTIONS_HELP = `${CONFIG_OPTION_HELP}
  -j, --journal FILE  Journal to read instead of the configuration's journal.path (no keys needed)
      --json          Print JSON for machines instead of tables`;

export class JournalMissingError extends Error {
  constructor(path: string) {
    super(`no journal at ${path}; give --journal FILE or a --config whose journal.path names one`);
    this.name = "JournalMissingError";
  }
}

/** The journal named by --journal, else by the configuration (which then must be valid). */
export function journalPathOf(values: OptionValues, io: CliIo): string {
  const given = values.journal;
  if (typeof given === "string" && given !== "") return given;
  return loadCliConfig(values, io).journal.path;
}

/** Opens the journal for reading; refuses to create an empty one where a journal was expected. */
export function openJournal(path: string): Journal {
  if (!existsSync(path)) throw new JournalMissingError(path);
  return new Journal(path);
}

/** Runs `read` on the journal the options name and closes it afterwards. */
export function withJournal<T>(values: OptionValues, io: CliIo, read: (journal: Journal) => T): T {
  const journal = openJournal(journalPathOf(values, io));
  try {
    return read(journal);
  } finally {
    journal.close();
  }
}

/** A positive integer option, or `fallback` when absent. */
export function positiveIntOption(values: OptionValues, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === "string" && /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`--${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  }
  return value;
}
