/**
 * Keeps every chain's network fee estimate and the recent batch sizes in memory, read in the
 * background every `refreshMs` like prices, so that a quote never waits on a chain. A failed read keeps
 * the last estimate with its time (it ages out after `maxAgeMs`) and records why, for the refusal.
 */
import type { Logger } from "pino";
import type { NetworkFeeEstimate } from "../../chains/chain.js";
import type { BatchSize } from "./batch-size.js";
import type { ChainFeeReading, NetworkFeeFacts } from "./facts.js";

export interface FeeEstimator {
  readonly chain: string;
  networkFees(): Promise<NetworkFeeEstimate>;
}

export interface FeeBookOptions {
  estimators: readonly FeeEstimator[];
  /** Mined transactions and the actions they carried since `sinceMs`, by `batchKey(chain, kind)`. */
  batchSizes: (sinceMs: number) => ReadonlyMap<string, BatchSize>;
  refreshMs: number;
  batchWindowMs: number;
  logger?: Logger;
  now?: () => number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class NetworkFeeBook {
  private readonly readings = new Map<string, ChainFeeReading>();
  private batches: ReadonlyMap<string, BatchSize> = new Map();
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private stopped = true;
  private readonly now: () => number;

  constructor(private options: FeeBookOptions) {
    this.now = options.now ?? Date.now;
  }

  /** New intervals take effect from the next read. */
  update(settings: Pick<FeeBookOptions, "refreshMs" | "batchWindowMs">): void {
    this.options = { ...this.options, ...settings };
  }

  facts(): NetworkFeeFacts {
    return { readings: new Map(this.readings), batches: this.batches };
  }

  /** Reads every chain once, then keeps reading every `refreshMs` until stopped. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.refreshing;
  }

  /** One round of reads; a round still running is joined, never doubled. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readAll().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.refresh().finally(() => this.schedule());
    }, this.options.refreshMs);
    // Background work must not keep a finished process alive.
    this.timer.unref();
  }

  private async readAll(): Promise<void> {
    await Promise.all(this.options.estimators.map((estimator) => this.readOne(estimator)));
    try {
      this.batches = this.options.batchSizes(this.now() - this.options.batchWindowMs);
    } catch (error) {
      // The last sizes stay: they were measured, and a journal read that failed says nothing new.
      this.options.logger?.warn({ err: errorText(error) }, "could not read recent batch sizes");
    }
  }

  private async readOne(estimator: FeeEstimator): Promise<void> {
    const previous = this.readings.get(estimator.chain);
    try {
      const fees = await estimator.networkFees();
      this.readings.set(estimator.chain, { last: { fees, atMs: this.now() }, error: null });
    } catch (error) {
      const message = errorText(error);
      this.readings.set(estimator.chain, { last: previous?.last ?? null, error: message });
      if (previous?.error !== message) {
        this.options.logger?.warn({ chain: estimator.chain, err: message }, "could not read network fees");
      }
    }
  }
}
