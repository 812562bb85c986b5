/**
 * `solver journal`: the most recent actions, transaction attempts and decisions across all orders;
 * `solver journal backup --out FILE`: a consistent copy of the journal, also while the solver runs.
 */
import { existsSync } from "node:fs";
import { backupJournal } from "../../journal/backup.js";
import { journalLog } from "../../ops/journal-views.js";
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand, type CommandInput } from "../command.js";
import { formatJournal } from "../format/journal-text.js";
import {
  JOURNAL_OPTIONS,
  JOURNAL_OPTIONS_HELP,
  JournalMissingError,
  journalPathOf,
  positiveIntOption,
  withJournal,
} from "../journal-option.js";

const DEFAULT_LIMIT = 20;

const HELP = `Usage: solver journal [--config FILE | --journal FILE] [--limit N] [--json]
       solver journal backup --out FILE [--config FILE | --journal FILE] [--json]

Shows the newest entries of the journal: actions (fill, redeem, refund), the transaction attempts that
carry them, and the decisions not to act, each newest first. Signed transaction bytes, keys and secrets
are never shown.

backup writes a copy of the journal to a new file (mode 600) through SQLite's online backup: one
consistent state of the journal, safe to take while the solver runs and writes it (the solver is neither
stopped nor paused, and its lease is not touched). The copy is opened, checked and its rows counted
before the command reports success. It never overwrites a file.

Options:
${JOURNAL_OPTIONS_HELP}
  -n, --limit N       Entries of each kind (default ${DEFAULT_LIMIT})
  -o, --out FILE      backup: the new file to write
  -h, --help          Show this help`;

async function backup({ values, io }: CommandInput): Promise<number> {
  const out = values.out;
  if (typeof out !== "string" || out === "") throw new UsageError("backup needs --out FILE");
  const source = journalPathOf(values, io);
  if (!existsSync(source)) throw new JournalMissingError(source);
  const result = await backupJournal(source, out);
  if (values.json === true) {
    io.stdout(toJson({ source, ...result }, 2));
  } else {
    const rows = Object.entries(result.rows).map(([table, n]) => `  ${table.padEnd(24)} ${n}`);
    io.stdout([`backed up ${source} to ${out} (${result.pages} pages); rows:`, ...rows].join("\n"));
  }
  return EXIT_OK;
}

export const command: CliCommand = {
  name: "journal",
  summary: "Show the recent actions, transaction attempts and decisions; back the journal up",
  help: HELP,
  options: { ...JOURNAL_OPTIONS, limit: { type: "string", short: "n" }, out: { type: "string", short: "o" } },
  run: async (input) => {
    const { values, positionals, io } = input;
    const [action, ...extra] = positionals;
    if (action === "backup" && extra.length === 0) return backup(input);
    if (action !== undefined) throw new UsageError(`unexpected argument "${extra[0] ?? action}"`);
    const limit = positiveIntOption(values, "limit", DEFAULT_LIMIT);
    const view = withJournal(values, io, (journal) => journalLog(journal, limit));
    io.stdout(values.json === true ? toJson(view, 2) : formatJournal(view));
    return EXIT_OK;
  },
};
