/**
 * How old a chain head may be. A node that is stuck or still syncing answers with an old head, and
 * confirmations and timelocks counted from it would be counted from the past: a source would seem to
 * have more blocks left before its refund than it has. So a head is judged by the time its block
 * states against the wall clock, and one older than the chain's allowance is not counted from.
 *
 * What the time is differs by family: an EVM block's timestamp; a Bitcoin tip's median time past (the
 * median of the last eleven block times, which a miner cannot move ahead of the clock as it can one
 * block's own time, but which trails the tip by about six blocks); a Solana slot's block time.
 */
import type { ChainFamily } from "../chain.js";

/** A head as an endpoint reported it. */
export interface HeadReading {
  height: number;
  /** The time the head's block states, ms since the epoch; null when the chain cannot tell. */
  timeMs: number | null;
}

/** Allowance on chains with blocks of seconds: ten of the slowest blocks, and never under a minute. */
const FAST_CHAIN_BLOCKS = 10;
const FAST_CHAIN_MIN_MS = 60_000;
/**
 * Bitcoin: two hours without a block happen a few times a year, and the median time past trails the
 * tip by about six blocks.
 */
const BITCOIN_GAP_MS = 2 * 3_600_000;
const BITCOIN_MEDIAN_LAG_BLOCKS = 6;

/** The default of `maxHeadAgeMs` for a chain, from its slowest plausible block interval. */
export function defaultMaxHeadAgeMs(family: ChainFamily, maxBlockTimeMs: number): number {
  if (family === "bitcoin") return BITCOIN_GAP_MS + BITCOIN_MEDIAN_LAG_BLOCKS * maxBlockTimeMs;
  return Math.max(FAST_CHAIN_MIN_MS, FAST_CHAIN_BLOCKS * maxBlockTimeMs);
}

/** A chain's allowance: the configured one, or the default for a config built in code that leaves it out. */
export function maxHeadAgeOf(config: {
  family: ChainFamily;
  maxBlockTimeMs: number;
  maxHeadAgeMs?: number | undefined;
}): number {
  return config.maxHeadAgeMs ?? defaultMaxHeadAgeMs(config.family, config.maxBlockTimeMs);
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
