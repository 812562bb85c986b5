/**
 * The quote thread's metrics, gathered there and handed to the main thread's `/metrics` in batches: per
 * outcome the durations of the requests answered, and per outcome and reason the requests answered
 * without a quote. The main thread records a batch at a time, never a request at a time.
 */
import type { QuoteOutcome } from "../quote-server.js";

export interface QuoteMetricsBatch {
  /** Seconds each request took, by outcome. */
  durations: Map<QuoteOutcome, number[]>;
  /** Requests answered without a quote, by outcome, then reason. */
  rejections: Map<QuoteOutcome, Map<string, number>>;
}

/** Where a batch goes on the main thread: `SolverMetrics.recordQuoteBatch`. */
export type QuoteMetricsSink = (batch: QuoteMetricsBatch) => void;

export class QuoteMetricsGatherer {
  private batch: QuoteMetricsBatch = { durations: new Map(), rejections: new Map() };
  private empty = true;

  /** A `QuoteServerOptions.observe`. */
  readonly observe = (outcome: QuoteOutcome, seconds: number, reason?: string): void => {
    this.empty = false;
    const durations = this.batch.durations.get(outcome);
    if (durations === undefined) this.batch.durations.set(outcome, [seconds]);
    else durations.push(seconds);
    if (reason === undefined) return;
    const reasons = this.batch.rejections.get(outcome) ?? new Map<string, number>();
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    this.batch.rejections.set(outcome, reasons);
  };

  /** What was gathered since the last call (null when nothing was), and a fresh start. */
  take(): QuoteMetricsBatch | null {
    if (this.empty) return null;
    const taken = this.batch;
    this.batch = { durations: new Map(), rejections: new Map() };
    this.empty = true;
    return taken;
  }
}
