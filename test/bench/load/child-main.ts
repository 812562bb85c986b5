/** What every part the benchmark runs as its own process does on SIGTERM: stop, and exit 0 only if that went cleanly. */
import type { Logger } from "pino";

export function stopOnSigterm(what: string, stop: () => Promise<void>, logger: Logger): void {
  process.once("SIGTERM", () => {
    void stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, `${what} did not stop cleanly`);
        process.exit(1);
      },
    );
  });
}
