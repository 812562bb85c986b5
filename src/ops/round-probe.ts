/**
 * After each solver round: asks every chain for its tip (what /health reports) and refreshes the
 * inventory gauges of every configured asset. Runs beside the runner, never inside its round, so a slow
 * node delays only this probe.
 */
import type { Logger } from "pino";
import type { ChainReader } from "../chains/chain.js";
import type { InventorySnapshot } from "../pricing/inventory.js";
import type { SolverMetrics } from "./metrics.js";

/** The last answer of one chain to "what is your tip?". */
export interface TipReading {
  /** Null when the last read failed. */
  height: bigint | null;
  error: string | null;
  atMs: number;
}

export interface RoundProbeOptions {
  chains: ReadonlyMap<string, { reader: Pick<ChainReader, "tipHeight"> }>;
  /** Every configured asset id. */
  assets: readonly string[];
  inventory: { snapshot(assetId: string): Promise<InventorySnapshot> };
  /** Amount per asset id filled and not yet redeemed or refunded. */
  inFlight: () => ReadonlyMap<string, bigint>;
  metrics: SolverMetrics;
  /** Told each tip read, e.g. the runner's observer. */
  onTip?: (chain: string, height: bigint) => void;
  logger: Logger;
  now?: () => number;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RoundProbe {
  private readonly readings = new Map<string, TipReading>();
  private readonly now: () => number;
  private running: Promise<void> | null = null;

  constructor(private readonly options: RoundProbeOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts a refresh unless one is still under way (a slow node must not pile reads up). */
  trigger(): void {
    if (this.running !== null) return;
    this.running = this.refresh().finally(() => (this.running = null));
  }

  async refresh(): Promise<void> {
    await Promise.all([this.readTips(), this.readInventory()]);
  }

  tips(): ReadonlyMap<string, TipReading> {
    return this.readings;
  }

  /** Waits for a refresh under way, so a stopping solver leaves no read behind. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async readTips(): Promise<void> {
    await Promise.all(
      [...this.options.chains].map(async ([name, chain]) => {
        try {
          const height = await chain.reader.tipHeight();
          this.readings.set(name, { height, error: null, atMs: this.now() });
          this.options.metrics.setChainTip(name, height);
          this.options.onTip?.(name, height);
        } catch (error) {
          this.readings.set(name, { height: null, error: message(error), atMs: this.now() });
          this.options.logger.warn({ err: error, chain: name }, "chain did not answer its tip");
        }
      }),
    );
  }

  private async readInventory(): Promise<void> {
    const { metrics, logger } = this.options;
    let inFlight: ReadonlyMap<string, bigint> = new Map();
    try {
      inFlight = this.options.inFlight();
    } catch (error) {
      logger.warn({ err: error }, "could not read the amounts in flight from the journal");
    }
    for (const asset of this.options.assets) {
      metrics.setInFlight(asset, inFlight.get(asset) ?? 0n);
      try {
        metrics.setInventory(asset, (await this.options.inventory.snapshot(asset)).balance);
      } catch (error) {
        logger.debug({ err: error, asset }, "could not read the inventory of an asset");
      }
    }
  }
}
