/**
 * The solver's verdicts for its ops server:
 * - /health: its last round ended within three poll intervals without an error and every configured
 *   chain answered its tip recently;
 * - /health/live: the process is not wedged (a round ended recently enough, however it ended): a failure
 *   here is worth a restart;
 * - /health/ready: it can do its work now: every chain answers, every live price is fresh and it holds
 *   the journal's lease. A failure here is worth routing no traffic to it, not a restart.
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

function tipProblem(
  reading: TipReading | undefined,
  input: Pick<SolverHealthInput, "nowMs" | "pollIntervalMs">,
): string | null {
  if (reading === undefined) return "tip not read yet";
  if (reading.error !== null) return `tip read failed: ${reading.error}`;
  const age = input.nowMs - reading.atMs;
  const limit = STALE_ROUNDS * input.pollIntervalMs + TIP_READ_GRACE_MS;
  return age > limit ? `last tip read ${seconds(age)} ago` : null;
}

/** A round loop this long without ending a round is wedged: generous, as a restart costs a start-up. */
export const WEDGED_ROUNDS = 10;
export const WEDGED_MIN_MS = 300_000;

export interface SolverLivenessInput {
  round: { lastTickMs: number };
  /** When the solver started: before its first round ends, the wait counts from here. */
  startedMs: number;
  pollIntervalMs: number;
  nowMs: number;
}

export function solverLiveness(input: SolverLivenessInput): HealthReport {
  const since = input.round.lastTickMs === 0 ? input.startedMs : input.round.lastTickMs;
  const limit = Math.max(WEDGED_ROUNDS * input.pollIntervalMs, WEDGED_MIN_MS);
  const age = input.nowMs - since;
  const what = input.round.lastTickMs === 0 ? "no round has ended since the start" : "last round ended";
  return healthFromChecks({
    rounds: age > limit ? `${what} ${seconds(age)} ago, more than ${seconds(limit)}` : null,
  });
}

export interface SolverReadinessInput {
  chains: readonly string[];
  tips: ReadonlyMap<string, TipReading>;
  pollIntervalMs: number;
  nowMs: number;
  /** Each live-priced asset and why its price cannot be used now (null when it can). */
  livePrices: readonly { assetId: string; refusal: string | null }[];
  /** Why this instance does not hold the journal's lease now, or null when it does. */
  leaseProblem: string | null;
}

export function solverReadiness(input: SolverReadinessInput): HealthReport {
  const checks: Record<string, string | null> = { "journal lease": input.leaseProblem };
  for (const chain of input.chains) checks[`chain ${chain}`] = tipProblem(input.tips.get(chain), input);
  for (const price of input.livePrices) checks[`price ${price.assetId}`] = price.refusal;
  return healthFromChecks(checks);
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
