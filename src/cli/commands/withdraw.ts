/** `solver withdraw`: moves free inventory out of the solver's wallet, never what live fills need. */
import { coinOf } from "../../chains/coins.js";
import { toJson } from "../../ops/json.js";
import { formatUnits } from "../../pricing/decimal.js";
import { parseAssetAmount } from "../amount-option.js";
import { withChainSession, type ChainSession } from "../chain-session.js";
import { EXIT_OK, UsageError, type CliCommand, type CommandInput } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadCliConfig } from "../config-option.js";
import { assetInventory, withdrawalRefusal } from "../free-inventory.js";
import { OperatorRefusal, sendOperatorTx, withOperatorLease } from "../operator-tx.js";
import { assetOption, chainOption, minedWaitMs, stringOption } from "../operator-target.js";

const HELP = `Usage: solver withdraw --chain NAME --asset SYMBOL --amount DECIMAL --to ADDRESS [--config FILE] [--json]

Sends AMOUNT of a configured asset from the solver's wallet on the chain to ADDRESS, out of its free
inventory only (solver balances: on chain - committed to live fills - the coin's fee reserve). It refuses,
naming the numbers, an amount above the free inventory, or one that would leave the chain's coin unable
to pay the transaction's own fee beside its reserve; an address that is not one of the chain; an asset
not configured there; an amount with more decimals than the asset has.

The transaction is journaled before it is sent, like every transaction of the solver, and the command
waits until it is mined. It takes the journal's lease while it works: while a solver runs on the same
journal it refuses, naming it (stop the solver, withdraw, start it again). An earlier withdrawal or approve
on the chain that is journaled and not settled must settle first; a solver started meanwhile sends it
again if the node lost it.

Options:
${CONFIG_OPTION_HELP}
      --chain NAME    A configured chain
      --asset SYMBOL  A configured asset of the chain (its symbol, or its id chain:symbol)
      --amount DEC    In the asset's units, e.g. 1.5
      --to ADDRESS    The recipient, an address of the chain
      --json          Print JSON for machines
  -h, --help          Show this help`;

async function withdraw(session: ChainSession, { values, io }: CommandInput): Promise<number> {
  const chain = chainOption(session, values);
  const asset = assetOption(chain, values);
  const amount = parseAssetAmount(stringOption(values, "amount"), asset);
  const to = stringOption(values, "to");
  const transfers = chain.executor.transfers;
  if (transfers === undefined)
    throw new UsageError(`withdrawals are not supported on ${chain.config.name} (${chain.config.family})`);
  const problem = transfers.addressProblem(to);
  if (problem !== null) throw new UsageError(`--to is not an address of ${chain.config.name}: ${problem}`);
  const { config, journal } = session;
  const coinAsset = coinOf(chain.config);
  // The one rule, asked before anything is built (a clear refusal) and again with fresh reads and the
  // built transaction's fee, right before it is journaled.
  const refusal = async (maxFee: bigint): Promise<string | null> => {
    const of = await assetInventory(config, journal, chain, asset);
    const coin =
      coinAsset === undefined
        ? null
        : coinAsset.id === asset.id
          ? of
          : await assetInventory(config, journal, chain, coinAsset);
    return withdrawalRefusal(of, coin, amount, maxFee);
  };
  const early = await refusal(0n);
  if (early !== null) throw new OperatorRefusal(`withdrawal refused: ${early}`);
  const sent = await withOperatorLease(journal, config.solver.leaseTtlMs, () =>
    sendOperatorTx({
      journal,
      chain,
      logger: session.logger,
      what: { operation: "withdraw", asset: asset.id, amount, to },
      build: () => transfers.buildTransfer({ asset: asset.id, amount, to }),
      recheck: async (maxFee) => {
        const late = await refusal(maxFee);
        if (late !== null) throw new OperatorRefusal(`withdrawal refused: ${late}`);
      },
      waitMs: minedWaitMs(chain),
    }),
  );
  const shown = `${formatUnits(amount, asset.decimals)} ${asset.symbol}`;
  if (values.json === true)
    io.stdout(toJson({ asset: asset.id, amount: formatUnits(amount, asset.decimals), to, ...sent }, 2));
  else
    io.stdout(
      sent.state === "pending"
        ? `withdrawal of ${shown} to ${to} on ${sent.chain} sent as ${sent.txHash}, not mined yet; solver journal shows it`
        : `withdrew ${shown} to ${to} on ${sent.chain}: ${sent.txHash}, mined at ${sent.blockHeight}${sent.state === "mined" ? " (not final yet: solver run follows it to finality)" : ""}`,
    );
  return EXIT_OK;
}

export const command: CliCommand = {
  name: "withdraw",
  summary: "Send free inventory from the solver's wallet to an address",
  help: HELP,
  options: {
    ...CONFIG_OPTION,
    chain: { type: "string" },
    asset: { type: "string" },
    amount: { type: "string" },
    to: { type: "string" },
    json: { type: "boolean" },
  },
  run: async (input) => {
    if (input.positionals.length > 0) throw new UsageError(`unexpected argument "${input.positionals[0]}"`);
    const config = loadCliConfig(input.values, input.io);
    return withChainSession(config, (session) => withdraw(session, input));
  },
};
