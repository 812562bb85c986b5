/**
 * What pricing knows of each chain's network fees, as plain data (the quote thread gets a copy in every
 * snapshot): the last estimate each chain's family gave and when, the last read's error, and the batch
 * sizes the solver achieved recently per chain and action kind.
 */
import type { NetworkFeeEstimate } from "../../chains/chain.js";
import type { BatchSize } from "./batch-size.js";

export type FeeActionKind = keyof NetworkFeeEstimate;

export interface ChainFeeReading {
  /** The last estimate read; null until one is. */
  last: { fees: NetworkFeeEstimate; atMs: number } | null;
  /** Why the latest read failed; null when it succeeded. */
  error: string | null;
}

export interface NetworkFeeFacts {
  readings: ReadonlyMap<string, ChainFeeReading>;
  /** Keyed by `batchKey(chain, kind)`; a kind with no recent transaction is absent. */
  batches: ReadonlyMap<string, BatchSize>;
}

export function batchKey(chain: string, kind: string): string {
  return `${chain}/${kind}`;
}

/** The settings of `networkFees` pricing reads (docs/configuration.md). */
export interface NetworkFeeSettings {
  /** Least profit per order beyond its network fees, USD cents. */
  minProfitUsdCents: bigint;
  /** Chance that the solver refunds its fill, bps. */
  refundProbabilityBps: number;
  /** At fill time, how far (USD cents) the order's network fees may exceed what it leaves for them. */
  lossToleranceUsdCents: bigint;
  /** Interval of the background read of every chain's fees. */
  refreshMs: number;
  /** An estimate older than this prices nothing. */
  maxAgeMs: number;
  /** Batch sizes are measured over the transactions mined in this window. */
  batchWindowMs: number;
}
