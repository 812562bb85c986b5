/** `solver orders`: the orders in the journal, or one order in detail with its transaction attempts. */
import { listOrders, orderDetail } from "../../ops/journal-views.js";
import { toJson } from "../../ops/json.js";
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { formatOrderDetail, formatOrders } from "../format/journal-text.js";
import { JOURNAL_OPTIONS, JOURNAL_OPTIONS_HELP, positiveIntOption, withJournal } from "../journal-option.js";

const DEFAULT_LIMIT = 50;

const HELP = `Usage: solver orders [--config FILE | --journal FILE] [--order ID] [--limit N] [--json]

Lists the orders in the journal, most recently seen first, with the solver's actions and last decision.
With --order, shows one order in detail: both sides, every action, transaction attempt and decision.
Keys and secrets are never shown; an order shows its secret hash.

Options:
${JOURNAL_OPTIONS_HELP}
  -o, --order ID      Show this order (64 hex) in detail
  -n, --limit N       Orders to list (default ${DEFAULT_LIMIT})
  -h, --help          Show this help`;

export const command: CliCommand = {
  name: "orders",
  summary: "List the journal's orders, or show one in detail with its attempts",
  help: HELP,
  options: {
    ...JOURNAL_OPTIONS,
    order: { type: "string", short: "o" },
    limit: { type: "string", short: "n" },
  },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const json = values.json === true;
    const orderId = values.order;
    if (typeof orderId === "string") {
      const id = orderId.toLowerCase().replace(/^0x/, "");
      const detail = withJournal(values, io, (journal) => orderDetail(journal, id));
      if (detail === null) {
        io.stderr(`solver orders: the journal has no order ${id}`);
        return EXIT_FAILURE;
      }
      io.stdout(json ? toJson(detail, 2) : formatOrderDetail(detail));
      return EXIT_OK;
    }
    const limit = positiveIntOption(values, "limit", DEFAULT_LIMIT);
    const orders = withJournal(values, io, (journal) => listOrders(journal, limit));
    io.stdout(json ? toJson(orders, 2) : formatOrders(orders));
    return EXIT_OK;
  },
};
