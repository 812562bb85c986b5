/** `solver journal`: the most recent actions, transaction attempts and decisions across all orders. */
import { journalLog } from "../../ops/journal-views.js";
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { formatJournal } from "../format/journal-text.js";
import { JOURNAL_OPTIONS, JOURNAL_OPTIONS_HELP, positiveIntOption, withJournal } from "../journal-option.js";

const DEFAULT_LIMIT = 20;

const HELP = `Usage: solver journal [--config FILE | --journal FILE] [--limit N] [--json]

Shows the newest entries of the journal: actions (fill, redeem, refund), the transaction attempts that
carry them, and the decisions not to act, each newest first. Signed transaction bytes, keys and secrets
are never shown.

Options:
${JOURNAL_OPTIONS_HELP}
  -n, --limit N       Entries of each kind (default ${DEFAULT_LIMIT})
  -h, --help          Show this help`;

export const command: CliCommand = {
  name: "journal",
  summary: "Show the recent actions, transaction attempts and decisions",
  help: HELP,
  options: { ...JOURNAL_OPTIONS, limit: { type: "string", short: "n" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const limit = positiveIntOption(values, "limit", DEFAULT_LIMIT);
    const view = withJournal(values, io, (journal) => journalLog(journal, limit));
    io.stdout(values.json === true ? toJson(view, 2) : formatJournal(view));
    return EXIT_OK;
  },
};
