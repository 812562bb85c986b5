/** `solver config check` validates and prints the effective configuration; `config schema` lists every setting. */
import { redactConfig } from "../../config/redact.js";
import { CHAIN_FAMILIES } from "../../chains/registry.js";
import { listSettings, solverSchema } from "../../config/schema.js";
import { ConfigError } from "../../config/errors.js";
import { checkConfigOnline } from "../../config/online-check.js";
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand, type CommandInput } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, configFileOf, loadCliConfig } from "../config-option.js";

const HELP = `Usage: solver config check [--config FILE] [--online]
       solver config schema

  check    Validate the configuration (defaults, profile file, environment) and print the effective
           configuration as JSON with keys, the app id and passwords redacted, and URLs shown as
           scheme, host and port only.
           Exit 0 when valid; exit 2 listing every problem, each naming its key.
           With --online, also asks the network: each endpoint answers the configured chain id or
           network, each HTLC contract or program and each token is there and the expected one
           (addresses left to the service are checked at start), and the service accepts the app id.
  schema   List every setting with its environment variable and default.

Options:
${CONFIG_OPTION_HELP}
      --online        With check: also check endpoints, contracts, tokens and the app id over the network
  -h, --help          Show this help`;

async function check({ values, io }: CommandInput): Promise<number> {
  const config = loadCliConfig(values, io);
  io.stdout(toJson(redactConfig(config), 2));
  const file = configFileOf(values, io) ?? "defaults and environment";
  if (values.online === true) {
    // Printed and exited on like the offline problems (exit 2, each naming its key).
    const problems = await checkConfigOnline(config);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  io.stderr(
    `configuration is valid${values.online === true ? " online" : ""} (${file}): ${config.chains.length} chains, ${config.strategies.length} strategies`,
  );
  return EXIT_OK;
}

function schema({ io }: CommandInput): number {
  const lines = listSettings(solverSchema(CHAIN_FAMILIES)).map(([key, spec]) => {
    const env = spec.env ?? "-";
    const fallback = spec.sensitive === true ? "(secret)" : JSON.stringify(spec.default);
    return `${key.padEnd(32)} ${env.padEnd(34)} ${fallback}\n    ${spec.doc}`;
  });
  io.stdout([`${"key".padEnd(32)} ${"environment".padEnd(34)} default`, ...lines].join("\n"));
  return EXIT_OK;
}

export const command: CliCommand = {
  name: "config",
  summary: "Check the configuration and print it with secrets redacted",
  help: HELP,
  options: { ...CONFIG_OPTION, online: { type: "boolean" } },
  run: async (input) => {
    const [action, ...extra] = input.positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (action === "check") return check(input);
    if (action === "schema") return schema(input);
    throw new UsageError(
      action === undefined ? "missing action: check or schema" : `unknown action "${action}"`,
    );
  },
};
