/** Starting the localnet for `solver localnet` and `solver demo`: fresh directory, file log, profile, summary. */
import type { Localnet } from "../localnet.js";
import type { CliIo } from "htlc-solver/cli/command.js";
import { freshLocalnetDir, localnetLogger, writeLocalnetProfile } from "./localnet-dir.js";
import { localnetSummary } from "./localnet-summary.js";

export async function startCliLocalnet(dir: string, io: CliIo, startSolver: boolean): Promise<Localnet> {
  freshLocalnetDir(dir);
  const logger = localnetLogger(dir);
  const parts = startSolver
    ? "two anvil chains, a Bitcoin regtest chain, a Solana cluster, the contracts, the service and the solver"
    : "without the solver";
  io.stdout(`starting the localnet in ${dir} (${parts})...`);
  const started = Date.now();
  // Loaded here, not at the top: other commands must not need the localnet's build-time packages.
  const { startLocalnet } = await import("../localnet.js");
  const net = await startLocalnet({ dir, logger, fresh: false, startSolver });
  writeLocalnetProfile(dir, net.solverConfig);
  io.stdout(`localnet up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  io.stdout(localnetSummary(net.descriptor, dir, startSolver));
  return net;
}
