/** `solver run`: the daemon. Quotes, fills, redeems and refunds until SIGINT or SIGTERM. */
import { createLogger } from "../../util/logger.js";
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand } from "../command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, configFileOf, loadCliConfig } from "../config-option.js";
import { waitForStopSignal } from "../signals.js";

const HELP = `Usage: solver run [--config FILE] [--dry-run]

Starts the solver: the quote endpoint (config quote.*), the ops server with /health, /metrics and
/status (config ops.*), and the loop that polls the service and fills, redeems and refunds orders.
Logs are JSON lines on stdout. SIGINT or SIGTERM stops it cleanly (exit 0); a second signal exits at once.
A clean stop that takes longer than solver.shutdownDeadlineMs (default 8 s, below a container's
usual 10 s stop timeout) ends the process anyway (exit 1): every claimed action is in the journal, and the
next start resumes it. An invalid configuration prints every problem and exits 2. A second solver on the same journal refuses
to start, naming the one that holds it (exit 1); a solver whose journal was taken over stops (exit 1). SIGHUP, or a change of the profile file,
reloads the pricing settings (strategies, prices, curves, limits) without a restart; a reloaded file with
problems is refused, each problem logged with its key, and the settings in force stay.

With --dry-run it reads the chains and the service and decides as usual, and where it would sign and send
(a fill, redeem, refund, a replacement or re-broadcast, its start-up approvals) it logs one line saying
what and does not: no key signs, no balance changes, no attempt is journaled. It still takes the
journal's lease and records its decisions and its actions (a dry-run action ends failed with the reason
"dry run", and is planned again each round): run it on a copy of the journal (solver journal backup) or
a journal of its own (SOLVER_JOURNAL_PATH), not beside a running solver.

Options:
${CONFIG_OPTION_HELP}
      --dry-run       Sign and send nothing; log what would be signed and sent
  -h, --help          Show this help`;

/** Runs `work`; false when it has not finished after `ms` (it goes on, unawaited). */
async function finishesWithin(ms: number, work: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work().then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export const command: CliCommand = {
  name: "run",
  summary: "Run the solver daemon",
  help: HELP,
  options: { ...CONFIG_OPTION, "dry-run": { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const config = loadCliConfig(values, io);
    const logger = createLogger({ level: config.log.level });
    // Listening before the start: a stop signal during it takes effect once the parts are up.
    const stop = waitForStopSignal((signal) =>
      logger.warn({ signal }, "second stop signal; exiting at once"),
    );
    try {
      const { startSolverApp } = await import("../../app/solver-app.js");
      const app = await startSolverApp(config, logger, undefined, { dryRun: values["dry-run"] === true });
      const file = configFileOf(values, io);
      const { ConfigReloader } = await import("../../app/config-reload.js");
      const reloader =
        file === undefined
          ? null
          : new ConfigReloader({
              file,
              initial: config,
              load: () => loadCliConfig(values, io),
              apply: (next) => app.reconfigure(next),
              logger: logger.child({ component: "config" }),
            });
      reloader?.start();
      const ended = await Promise.race([
        stop.received.then((signal) => ({ signal })),
        app.fatal.catch((error: unknown) => ({ error })),
      ]);
      if ("signal" in ended) logger.info({ signal: ended.signal }, "stopping");
      const deadlineMs = config.solver.shutdownDeadlineMs;
      const stopped = await finishesWithin(deadlineMs, async () => {
        await reloader?.stop();
        await app.stop();
      });
      if (!stopped) {
        // Whatever still runs (a hung RPC call, a slow disk) would keep the process up past the
        // supervisor's patience, which then kills it less gracefully; the journal makes this exit safe.
        logger.error(
          { deadlineMs },
          "clean stop did not finish in time; exiting now: the journal holds every claimed action and the next start resumes it",
        );
        process.exit(EXIT_FAILURE);
      }
      logger.info("stopped");
      if ("error" in ended) throw ended.error;
      return EXIT_OK;
    } finally {
      stop.release();
    }
  },
};
