/** `solver approve`: the token allowances of the solver's account to the HTLC contracts: show, set, revoke. */
import { maxUint256 } from "viem";
import type { PreparedChain } from "../../chains/family-module.js";
import type { AssetConfig } from "../../config/types.js";
import { toJson } from "../../ops/json.js";
import { formatUnits } from "../../pricing/decimal.js";
import { parseAssetAmount } from "../amount-option.js";
import { withChainSession, type ChainSession } from "../chain-session.js";
import { EXIT_OK, UsageError, type CliCommand, type CommandInput } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadCliConfig } from "../config-option.js";
import { renderTable } from "../format/table.js";
import { OperatorRefusal, sendOperatorTx, withOperatorLease } from "../operator-tx.js";
import { assetOption, chainOption, minedWaitMs } from "../operator-target.js";

const HELP = `Usage: solver approve [--chain NAME] [--config FILE] [--json]
       solver approve --chain NAME --asset SYMBOL (--amount DECIMAL | --revoke | --unlimited) [--config FILE] [--json]

Without --asset, shows the allowance of the solver's account to the HTLC of every token asset (on every
chain whose tokens have allowances, or on --chain). With --asset, sets it to exactly --amount (in the
token's units), or to 0 with --revoke, and shows it as the chain then has it.

--unlimited sets the largest allowance (2^256 - 1). It is what solver run itself grants each token's HTLC
at start whenever the allowance is below half of that, so that fills never wait for an approve: an HTLC
contract that turned hostile could then take every token the account holds, where a bounded allowance
caps it at the amount approved. Note that solver run, at its next start, raises a bounded or revoked
allowance back to unlimited: to keep one bounded, run the solver with that token unconfigured.

The approve is journaled before it is sent, like every transaction of the solver, and the command waits
until it is mined. Setting takes the journal's lease: while a solver runs on the same journal it refuses,
naming it.

Options:
${CONFIG_OPTION_HELP}
      --chain NAME    A configured chain
      --asset SYMBOL  A token asset of the chain
      --amount DEC    The allowance to set, in the token's units, e.g. 5000
      --revoke        Set the allowance to 0
      --unlimited     Set the largest allowance (see above)
      --json          Print JSON for machines
  -h, --help          Show this help`;

interface AllowanceView {
  chain: string;
  asset: string;
  spender: string;
  allowance: string;
  unlimited: boolean;
}

function view(asset: AssetConfig, spender: string, allowance: bigint): AllowanceView {
  const unlimited = allowance === maxUint256;
  return {
    chain: asset.chain,
    asset: asset.id,
    spender,
    allowance: unlimited ? "unlimited" : formatUnits(allowance, asset.decimals),
    unlimited,
  };
}

async function allowancesOf(chain: PreparedChain): Promise<AllowanceView[]> {
  const allowances = chain.executor.tokenAllowances;
  if (allowances === undefined) return [];
  const views: AllowanceView[] = [];
  for (const asset of chain.config.assets) {
    const current = await allowances.allowance(asset.id);
    if (current !== null) views.push(view(asset, current.spender, current.allowance));
  }
  return views;
}

function print(views: readonly AllowanceView[], input: CommandInput): void {
  if (input.values.json === true) {
    input.io.stdout(toJson(views, 2));
    return;
  }
  const rows = views.map((v) => [v.chain, v.asset.split(":")[1] ?? v.asset, v.spender, v.allowance]);
  input.io.stdout(renderTable(["CHAIN", "ASSET", "SPENDER (HTLC)", "ALLOWANCE"], rows));
}

function targetAmount(input: CommandInput, asset: AssetConfig): bigint {
  const { values } = input;
  const chosen = [values.amount !== undefined, values.revoke === true, values.unlimited === true];
  if (chosen.filter(Boolean).length !== 1)
    throw new UsageError("give exactly one of --amount DECIMAL, --revoke or --unlimited");
  if (values.revoke === true) return 0n;
  if (values.unlimited === true) return maxUint256;
  return parseAssetAmount(String(values.amount), asset);
}

async function approve(session: ChainSession, input: CommandInput): Promise<number> {
  const { values } = input;
  if (values.asset === undefined) {
    if (values.amount !== undefined || values.revoke === true || values.unlimited === true)
      throw new UsageError("setting an allowance needs --chain and --asset");
    const chains = values.chain === undefined ? [...session.chains.values()] : [chainOption(session, values)];
    const views = (await Promise.all(chains.map(allowancesOf))).flat();
    print(views, input);
    return EXIT_OK;
  }
  const chain = chainOption(session, values);
  const asset = assetOption(chain, values);
  const allowances = chain.executor.tokenAllowances;
  if (allowances === undefined)
    throw new UsageError(`${chain.config.name} (${chain.config.family}) has no token allowances`);
  const current = await allowances.allowance(asset.id);
  if (current === null) throw new UsageError(`${asset.id} is the chain's coin: it has no allowance`);
  const amount = targetAmount(input, asset);
  const sent = await withOperatorLease(session.journal, session.config.solver.leaseTtlMs, () =>
    sendOperatorTx({
      journal: session.journal,
      chain,
      logger: session.logger,
      what: { operation: "approve", asset: asset.id, spender: current.spender, amount },
      build: () => allowances.buildApproval(asset.id, amount),
      // An approve moves no inventory; its fee comes from the coin, which the node checks.
      recheck: () => Promise.resolve(),
      waitMs: minedWaitMs(chain),
    }),
  );
  if (sent.state === "pending")
    throw new OperatorRefusal(
      `approve sent as ${sent.txHash} but not mined yet; solver approve shows it once mined`,
    );
  const now = await allowances.allowance(asset.id);
  if (now === null) throw new Error(`${asset.id} lost its allowance`);
  print([view(asset, now.spender, now.allowance)], input);
  input.io.stderr(`approve ${sent.txHash} mined at ${sent.blockHeight}`);
  return EXIT_OK;
}

export const command: CliCommand = {
  name: "approve",
  summary: "Show, set or revoke the token allowances of the solver's account to the HTLCs",
  help: HELP,
  options: {
    ...CONFIG_OPTION,
    chain: { type: "string" },
    asset: { type: "string" },
    amount: { type: "string" },
    revoke: { type: "boolean" },
    unlimited: { type: "boolean" },
    json: { type: "boolean" },
  },
  run: async (input) => {
    if (input.positionals.length > 0) throw new UsageError(`unexpected argument "${input.positionals[0]}"`);
    const config = loadCliConfig(input.values, input.io);
    return withChainSession(config, (session) => approve(session, input));
  },
};
