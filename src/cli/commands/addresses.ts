/** `solver addresses`: the solver's address or public key on every configured chain. */
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadCliConfig } from "../config-option.js";
import { renderTable } from "../format/table.js";
import { solverAccounts } from "../solver-accounts.js";

const HELP = `Usage: solver addresses [--config FILE] [--json]

Shows, for every configured chain, the solver's account there as derived from the configured keys: its
address on EVM chains, its x-only key and wallet address on Bitcoin (the key is the HTLCs' party, the
address the wallet its fills pay from and its redeems pay to), its public key on Solana. Fund these;
nothing secret is printed. Reads no chain.

Options:
${CONFIG_OPTION_HELP}
      --json          Print JSON for machines instead of a table
  -h, --help          Show this help`;

export const command: CliCommand = {
  name: "addresses",
  summary: "Show the solver's address or public key on each configured chain",
  help: HELP,
  options: { ...CONFIG_OPTION, json: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const accounts = solverAccounts(loadCliConfig(values, io));
    if (values.json === true) {
      io.stdout(toJson(accounts, 2));
      return EXIT_OK;
    }
    const rows = accounts.flatMap(({ chain, family, account }) =>
      Object.entries(account).map(([label, value], i) => [
        i === 0 ? chain : "",
        i === 0 ? family : "",
        label,
        value,
      ]),
    );
    io.stdout(renderTable(["CHAIN", "FAMILY", "KIND", "VALUE"], rows));
    return EXIT_OK;
  },
};
