/**
 * How old a chain head may be. A node that is stuck or still syncing answers with an old head, and
 * confirmations and timelocks counted from it would be counted from the past: a source would seem to
 * have more blocks left before its refund than it has. So a head is judged by the time its block
 * states against the wall clock, and one older than the chain's allowance is not counted from.
 *
 * What the time is differs by family (a block's timestamp, a slot's block time, a tip's median time
 * past), and so may the allowance: a family whose head time trails its tip gives its own default.
 */
/** A head as an endpoint reported it. */
export interface HeadReading {
  height: number;
  /** The time the head's block states, ms since the epoch; null when the chain cannot tell. */
  timeMs: number | null;
}

/** Allowance on chains with blocks of seconds: ten of the slowest blocks, and never under a minute. */
const FAST_CHAIN_BLOCKS = 10;
const FAST_CHAIN_MIN_MS = 60_000;
/** The default of `maxHeadAgeMs` for a chain whose head time is its newest block's, from its slowest block interval. */
export function defaultMaxHeadAgeMs(maxBlockTimeMs: number): number {
  return Math.max(FAST_CHAIN_MIN_MS, FAST_CHAIN_BLOCKS * maxBlockTimeMs);
}

/**
 * A chain's allowance: the configured one, or for a config built in code that leaves it out the family's
 * default (`familyDefault`).
 */
export function maxHeadAgeOf(
  config: { maxBlockTimeMs: number; maxHeadAgeMs?: number | undefined },
  familyDefault: (maxBlockTimeMs: number) => number = defaultMaxHeadAgeMs,
): number {
  return config.maxHeadAgeMs ?? familyDefault(config.maxBlockTimeMs);
}

/** Why a head is too old to count from; null when it is recent enough, or its time is unknown. */
export function staleHeadReason(head: HeadReading, nowMs: number, maxHeadAgeMs: number): string | null {
  if (head.timeMs === null) return null;
  const ageMs = nowMs - head.timeMs;
  if (ageMs <= maxHeadAgeMs) return null;
  return (
    `head ${head.height} is from ${new Date(head.timeMs).toISOString()}, ${Math.round(ageMs / 1000)} s ago; ` +
    `at most ${Math.round(maxHeadAgeMs / 1000)} s is taken as current`
  );
}
