/** `solver status`: the orders the solver still follows, with their actions and last decision. */
import { statusView } from "../../ops/journal-views.js";
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { formatStatus } from "../format/journal-text.js";
import { JOURNAL_OPTIONS, JOURNAL_OPTIONS_HELP, withJournal } from "../journal-option.js";

const HELP = `Usage: solver status [--config FILE | --journal FILE] [--json]

Reads the journal (also while the solver runs) and shows every order the solver still follows: its
actions with their transaction hashes, and the last decision taken about it. --json adds the recent
actions and decisions of all orders. Keys and secrets are never shown; a redeem shows its secret hash.

Options:
${JOURNAL_OPTIONS_HELP}
  -h, --help          Show this help`;

export const command: CliCommand = {
  name: "status",
  summary: "Show the orders the solver follows, their actions and last decisions",
  help: HELP,
  options: JOURNAL_OPTIONS,
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const view = withJournal(values, io, (journal) => statusView(journal));
    io.stdout(values.json === true ? toJson(view, 2) : formatStatus(view));
    return EXIT_OK;
  },
};
