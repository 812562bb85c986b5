/**
 * The solver's /health verdict: healthy when its last round ended within three poll intervals without
 * an error and every configured chain answered its tip recently.
 */
import { healthFromChecks, type HealthReport } from "./health.js";
import type { TipReading } from "./round-probe.js";

/** Rounds may end this many poll intervals apart before the solver counts as stuck. */
export const STALE_ROUNDS = 3;
/** Extra time a tip read may take on top of that (a read starts only after a round ends). */
export const TIP_READ_GRACE_MS = 10_000;

export interface SolverHealthInput {
  /** The runner's last round: when it ended (0 = none yet) and its error. */
  round: { lastTickMs: number; lastTickError: string | null };
  chains: readonly string[];
  tips: ReadonlyMap<string, TipReading>;
  pollIntervalMs: number;
  nowMs: number;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function roundProblem(input: SolverHealthInput): string | null {
  const { lastTickMs, lastTickError } = input.round;
  if (lastTickMs === 0) return "no round has finished yet";
  const age = input.nowMs - lastTickMs;
  const limit = STALE_ROUNDS * input.pollIntervalMs;
  if (age > limit) {
    return `last round ended ${seconds(age)} ago, more than ${STALE_ROUNDS} poll intervals (${seconds(limit)})`;
  }
  return lastTickError === null ? null : `last round failed: ${lastTickError}`;
}

function tipProblem(reading: TipReading | undefined, input: SolverHealthInput): string | null {
  if (reading === undefined) return "tip not read yet";
  if (reading.error !== null) return `tip read failed: ${reading.error}`;
  const age = input.nowMs - reading.atMs;
  const limit = STALE_ROUNDS * input.pollIntervalMs + TIP_READ_GRACE_MS;
  return age > limit ? `last tip read ${seconds(age)} ago` : null;
}

export function solverHealth(input: SolverHealthInput): HealthReport {
  const checks: Record<string, string | null> = { round: roundProblem(input) };
  const chainDetail: Record<string, unknown> = {};
  for (const chain of input.chains) {
    const reading = input.tips.get(chain);
    checks[`chain ${chain}`] = tipProblem(reading, input);
    chainDetail[chain] = reading
      ? { tip: reading.height, readMsAgo: input.nowMs - reading.atMs }
      : { tip: null, readMsAgo: null };
  }
  const { lastTickMs, lastTickError } = input.round;
  return {
    ...healthFromChecks(checks),
    checks: {
      round: { endedMsAgo: lastTickMs === 0 ? null : input.nowMs - lastTickMs, error: lastTickError },
      chains: chainDetail,
    },
  };
}
