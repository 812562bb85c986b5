/** `solver localnet`: the whole system on this machine until Ctrl-C. */
import { EXIT_OK, UsageError, type CliCommand } from "htlc-solver/cli/command.js";
import { DEFAULT_LOCALNET_DIR, localnetDirOf } from "../localnet-dir.js";
import { waitForStopSignal } from "htlc-solver/cli/signals.js";
import { startCliLocalnet } from "../start-localnet.js";

const HELP = `Usage: solver localnet [--dir DIR] [--without-solver]

Starts two local EVM chains (anvil) with the HTLC contracts and test tokens, a Bitcoin regtest chain,
a local Solana cluster with the HTLC programs and a USDC-like token, funded test users, the local swap service and the solver, and keeps them up until Ctrl-C (SIGINT or
SIGTERM). DIR (emptied first; it must be new, empty or a previous localnet's) receives localnet.json
(everything a client needs), solver.log (all logs), the databases, and solver.json with solver-keys.json:
the solver's configuration for \`solver run --config\` and \`solver status --config\`.

Options:
  -d, --dir DIR          Working directory (default ${DEFAULT_LOCALNET_DIR})
      --without-solver   Leave the solver out, to run it yourself with solver run --config DIR/solver.json
  -h, --help             Show this help`;

export const command: CliCommand = {
  name: "localnet",
  summary: "Run local chains, the contracts, the service and the solver until Ctrl-C",
  help: HELP,
  options: { dir: { type: "string", short: "d" }, "without-solver": { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const dir = localnetDirOf(values);
    const stop = waitForStopSignal(() => io.stderr("second stop signal; exiting without a clean stop"));
    try {
      const net = await startCliLocalnet(dir, io, values["without-solver"] !== true);
      io.stdout("up until Ctrl-C");
      await stop.received;
      io.stdout("stopping the localnet...");
      await net.stop();
      io.stdout("stopped");
      return EXIT_OK;
    } finally {
      stop.release();
    }
  },
};
