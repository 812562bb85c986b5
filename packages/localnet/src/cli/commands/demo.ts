/** `solver demo` (what `npm start` runs): the localnet, then swaps in both directions through the service. */
import type { Journal } from "htlc-solver/journal/journal.js";
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand, type CliIo } from "htlc-solver/cli/command.js";
import { formatPrices } from "htlc-solver/cli/format/prices-text.js";
import { DEFAULT_LOCALNET_DIR, localnetDirOf } from "../localnet-dir.js";
import { waitForStopSignal } from "htlc-solver/cli/signals.js";
import { startCliLocalnet } from "../start-localnet.js";

const HELP = `Usage: solver demo [--dir DIR] [--exit]

Starts the localnet (see \`solver localnet --help\`), prints the prices the solver quotes from (the
median of each asset's on-chain feed and exchange tickers), then has the test users swap through the
service's API, as a wallet would, and prints each order's progress with its transaction hashes:
  1. USDC ethereum_localnet -> arbitrum_localnet, initiated by an EIP-712 signature the service relays
  2. native ETH on ethereum_localnet -> USDC on arbitrum_localnet, initiated on chain
  3. USDC arbitrum_localnet -> ethereum_localnet, initiated on chain
  4. BTC on bitcoin_regtest -> WBTC on arbitrum_localnet, paid to the order's deposit address
  5. WBTC on ethereum_localnet -> BTC on bitcoin_regtest, initiated on chain
  6. SOL on solana_localnet -> ETH on arbitrum_localnet, locked with the Solana HTLC program
  7. USDC on ethereum_localnet -> USDC (SPL) on solana_localnet, initiated by an EIP-712 signature
  8. BTC on bitcoin_regtest -> SOL on solana_localnet, paid to the order's deposit address
Each completed swap shows the time from the user's initiate to the solver's source redeem. Logs go to
DIR/solver.log. Then the localnet stays up until Ctrl-C; with --exit it stops once the solver's
last transactions are confirmed.
Exit 0 when every swap completed, 1 otherwise.

Options:
  -d, --dir DIR   Working directory (default ${DEFAULT_LOCALNET_DIR})
      --exit      Stop after the swaps instead of staying up
  -h, --help      Show this help`;

/**
 * An order reads complete once its redeems are seen, possibly still unmined; the solver's journal marks
 * its own redeem confirmed a round after it is mined. Let that happen before stopping.
 */
async function settle(
  journal: Pick<Journal, "liveAttemptRows">,
  io: CliIo,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (journal.liveAttemptRows().length > 0) {
    if (Date.now() > deadline) {
      io.stdout("the solver still has unconfirmed transactions; stopping anyway (they are journaled)");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const command: CliCommand = {
  name: "demo",
  summary: "Start the localnet and swap in both directions through the service",
  help: HELP,
  options: { dir: { type: "string", short: "d" }, exit: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const dir = localnetDirOf(values);
    const stop = waitForStopSignal(() => io.stderr("second stop signal; exiting without a clean stop"));
    const abort = new AbortController();
    void stop.received.then(() => abort.abort());
    try {
      const net = await startCliLocalnet(dir, io, true);
      if (net.solver) io.stdout(`\n${formatPrices(net.solver.pricing.describePrices())}`);
      const { runDemo, demoSummary } = await import("../../demo.js");
      const results = abort.signal.aborted
        ? []
        : await runDemo(net.descriptor, { print: (line) => io.stdout(line), abort: abort.signal });
      const interrupted = abort.signal.aborted;
      io.stdout("");
      io.stdout(interrupted ? "interrupted" : demoSummary(results));
      if (!interrupted && values.exit !== true) {
        io.stdout("the localnet stays up until Ctrl-C");
        await stop.received;
      }
      if (net.solver) await settle(net.solver.journal, io);
      io.stdout("stopping the localnet...");
      await net.stop();
      io.stdout("stopped");
      return !interrupted && results.every((r) => r.completed) ? EXIT_OK : EXIT_FAILURE;
    } finally {
      stop.release();
    }
  },
};
