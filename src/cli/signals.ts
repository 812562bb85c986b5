/** Waiting for Ctrl-C or a service manager's stop, for the commands that stay up. */

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export interface StopSignal {
  /** Resolves with the first stop signal received. */
  received: Promise<NodeJS.Signals>;
  /** Puts the default signal behaviour back; call once the clean stop is done. */
  release(): void;
}

/**
 * Listens for SIGINT/SIGTERM. A second signal while the first one's clean stop is still running ends
 * the process at once with `forcedExitCode`, so an operator is never stuck behind a hung shutdown.
 */
export function waitForStopSignal(
  onForcedExit: (signal: NodeJS.Signals) => void = () => undefined,
  forcedExitCode = 130,
): StopSignal {
  let first: NodeJS.Signals | null = null;
  let resolve: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const handler = (signal: NodeJS.Signals): void => {
    if (first === null) {
      first = signal;
      resolve(signal);
      return;
    }
    onForcedExit(signal);
    process.exit(forcedExitCode);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return {
    received,
    release: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, handler);
    },
  };
}
