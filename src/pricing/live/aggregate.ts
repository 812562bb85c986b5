/**
 * One price out of several sources: the median of the fresh answers, refused when too few are fresh or
 * when they disagree by more than the asset allows. Exact: prices stay integer ratios throughout.
 */
import { addRatios, compareRatios, parseDecimal, ratioToDecimal, type Ratio } from "../decimal.js";
import type { PriceRefusalReason } from "../price-source.js";
import type { PriceObservation } from "./observation.js";

/** The last thing one source said: its observation, or why it has none. */
export interface SourceReading {
  label: string;
  /** Older than this (ms) and the observation no longer counts. Infinity for the fixed table. */
  maxAgeMs: number;
  observation: PriceObservation | null;
  /** The last failure, when the last attempt failed. */
  error: string | null;
}

export interface AggregateRule {
  minSources: number;
  maxDeviationBps: number;
}

export type Aggregated =
  { ok: true; price: Ratio; used: string[] } | { ok: false; reason: PriceRefusalReason; detail: string };

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Why a reading does not count now, or null when it does. */
function staleness(reading: SourceReading, nowMs: number): string | null {
  const { observation } = reading;
  if (observation === null) return `${reading.label}: ${reading.error ?? "no answer yet"}`;
  // A clock ahead of ours (a chain's block time) is not a stale answer.
  const age = Math.max(0, nowMs - observation.atMs);
  if (age > reading.maxAgeMs) {
    const failing = reading.error === null ? "" : `; last read failed: ${reading.error}`;
    return `${reading.label}: ${seconds(age)} old, max ${seconds(reading.maxAgeMs)}${failing}`;
  }
  return null;
}

export function median(sorted: readonly Ratio[]): Ratio {
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle];
  if (upper === undefined) throw new Error("median of no prices");
  if (sorted.length % 2 === 1) return upper;
  const lower = sorted[middle - 1] as Ratio;
  const sum = addRatios(lower, upper);
  return { num: sum.num, den: sum.den * 2n };
}

function show(value: Ratio): string {
  return ratioToDecimal(value);
}

export function aggregate(
  readings: readonly SourceReading[],
  rule: AggregateRule,
  nowMs: number,
): Aggregated {
  if (readings.length === 0) return { ok: false, reason: "price_unavailable", detail: "no price sources" };
  const fresh: { label: string; price: Ratio }[] = [];
  const notFresh: string[] = [];
  for (const reading of readings) {
    const problem = staleness(reading, nowMs);
    if (problem !== null || reading.observation === null) notFresh.push(problem ?? reading.label);
    else fresh.push({ label: reading.label, price: parseDecimal(reading.observation.price) });
  }
  if (fresh.length < rule.minSources) {
    return {
      ok: false,
      reason: "price_stale",
      detail: `${fresh.length} of ${readings.length} sources fresh, ${rule.minSources} needed (${notFresh.join("; ")})`,
    };
  }
  fresh.sort((a, b) => compareRatios(a.price, b.price));
  const mid = median(fresh.map((f) => f.price));
  const low = fresh[0] as { price: Ratio };
  const high = fresh[fresh.length - 1] as { price: Ratio };
  // (high − low) / median ≤ maxDeviationBps / 10000, in integers.
  const spread = {
    num: high.price.num * low.price.den - low.price.num * high.price.den,
    den: high.price.den * low.price.den,
  };
  if (spread.num * 10_000n * mid.den > BigInt(rule.maxDeviationBps) * mid.num * spread.den) {
    const bps = (spread.num * 10_000n * mid.den) / (mid.num * spread.den);
    return {
      ok: false,
      reason: "price_sources_disagree",
      detail: `sources disagree by ${bps} bps, max ${rule.maxDeviationBps} (${fresh.map((f) => `${f.label} ${show(f.price)}`).join(", ")})`,
    };
  }
  return { ok: true, price: mid, used: fresh.map((f) => f.label) };
}
