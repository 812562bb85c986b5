/** `solver pnl`: the realised profit and loss of settled orders, per day, per pair and in total. */
import { PnlStore } from "../../journal/pnl-store.js";
import { toJson } from "../../ops/json.js";
import { pnlView } from "../../pnl/pnl-view.js";
import { EXIT_OK, UsageError, type CliCommand, type OptionValues } from "../command.js";
import { formatPnl } from "../format/pnl-text.js";
import { JOURNAL_OPTIONS, JOURNAL_OPTIONS_HELP, withJournal } from "../journal-option.js";

const HELP = `Usage: solver pnl [--config FILE | --journal FILE] [--since DAY] [--orders] [--json]

Shows what settled orders realised, in USD: the source value the solver received, the destination value
it gave (less what refunds brought back), and every network fee its transactions paid (fills, redeems,
refunds), each valued at the USD price journaled when the order settled. Per day (UTC), per pair and in
total. Tables round to the cent; --json gives the exact values.

Options:
${JOURNAL_OPTIONS_HELP}
      --since DAY     Only orders settled on or after DAY (YYYY-MM-DD, UTC)
      --orders        Also list each order (with --json: each order's legs and prices)
  -h, --help          Show this help`;

function sinceOf(values: OptionValues): number {
  const raw = values.since;
  if (raw === undefined) return 0;
  const ms =
    typeof raw === "string" && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms))
    throw new UsageError(`--since must be a day as YYYY-MM-DD, not ${JSON.stringify(raw)}`);
  return ms;
}

export const command: CliCommand = {
  name: "pnl",
  summary: "Show the profit and loss of settled orders per day, per pair and in total",
  help: HELP,
  options: { ...JOURNAL_OPTIONS, since: { type: "string" }, orders: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const since = sinceOf(values);
    const settlements = withJournal(values, io, (journal) =>
      new PnlStore(journal.database).settlements(since),
    );
    const view = pnlView(settlements, values.orders === true);
    io.stdout(values.json === true ? toJson(view, 2) : formatPnl(view));
    return EXIT_OK;
  },
};
