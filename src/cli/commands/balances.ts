/** `solver balances`: per chain and asset, what the solver holds, what live fills need and what is free. */
import { formatUnits } from "../../pricing/decimal.js";
import { toJson } from "../../ops/json.js";
import { withChainSession } from "../chain-session.js";
import { EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadCliConfig } from "../config-option.js";
import { renderTable } from "../format/table.js";
import { allInventories, type AssetInventory } from "../free-inventory.js";

const HELP = `Usage: solver balances [--config FILE] [--json]

Reads every configured chain and the journal (also while the solver runs) and shows per chain and asset:
  ON CHAIN    the wallet's balance as the solver reads it: the chain's, less what its journaled
              transactions not yet mined will spend
  COMMITTED   fills claimed but not yet signed: still in the wallet, already promised
  IN FLIGHT   every fill of an open order not refunded, for the record (signed ones are no longer
              in ON CHAIN)
  FEE RESERVE the chain's coin kept for fees: its inventory floor (limits.inventoryFloor)
  FREE        ON CHAIN - COMMITTED - FEE RESERVE: what solver withdraw may move
  FLOOR       limits.inventoryFloor: below it the solver stops filling from the asset
  TARGET      inventoryCurves.<asset>.target, where the fee curve is at its middle
Amounts are decimal, in the asset's units with its symbol; --json gives them as decimal strings.

Options:
${CONFIG_OPTION_HELP}
      --json          Print JSON for machines instead of a table
  -h, --help          Show this help`;

function view(entry: AssetInventory) {
  const show = (amount: bigint | null) =>
    amount === null ? null : formatUnits(amount, entry.asset.decimals);
  return {
    chain: entry.chain,
    asset: entry.asset.id,
    symbol: entry.asset.symbol,
    decimals: entry.asset.decimals,
    coin: entry.isCoin,
    onChain: show(entry.onChain),
    committed: show(entry.committed),
    inFlight: show(entry.inFlight),
    feeReserve: show(entry.feeReserve),
    free: show(entry.free),
    floor: show(entry.floor),
    target: show(entry.target),
  };
}

function table(entries: readonly AssetInventory[]): string {
  const rows = entries.map((entry) => {
    const v = view(entry);
    const withSymbol = (amount: string | null) => (amount === null ? "-" : `${amount} ${v.symbol}`);
    return [
      v.chain,
      v.symbol,
      withSymbol(v.onChain),
      withSymbol(v.committed),
      withSymbol(v.inFlight),
      withSymbol(v.feeReserve),
      withSymbol(v.free),
      withSymbol(v.floor),
      withSymbol(v.target),
    ];
  });
  const headers = [
    "CHAIN",
    "ASSET",
    "ON CHAIN",
    "COMMITTED",
    "IN FLIGHT",
    "FEE RESERVE",
    "FREE",
    "FLOOR",
    "TARGET",
  ];
  return renderTable(headers, rows);
}

export const command: CliCommand = {
  name: "balances",
  summary: "Show per chain and asset the balance, what live fills need and what is free",
  help: HELP,
  options: { ...CONFIG_OPTION, json: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const config = loadCliConfig(values, io);
    const entries = await withChainSession(config, (session) =>
      allInventories(config, session.journal, session.chains),
    );
    io.stdout(values.json === true ? toJson(entries.map(view), 2) : table(entries));
    return EXIT_OK;
  },
};
