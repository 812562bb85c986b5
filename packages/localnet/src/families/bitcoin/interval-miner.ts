/**
 * Mines one Bitcoin block per interval on a fixed grid, as anvil's interval mining does: the time a block
 * takes to mine, and a busy event loop, delay that block but not every block after it (waiting a full
 * interval after each block made the localnet's 1 s blocks come every 1.3-1.5 s under load). A miner
 * that fell a whole interval behind starts a new grid rather than mining a burst to catch up.
 */
import type { Logger } from "pino";

export interface BlockMiner {
  generateToAddress(count: number, address: string): Promise<unknown>;
}

export class IntervalMiner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private nextAtMs = 0;

  constructor(
    private readonly rpc: BlockMiner,
    private readonly address: string,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.nextAtMs = Date.now() + this.intervalMs;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        const now = Date.now();
        this.nextAtMs =
          this.nextAtMs + this.intervalMs <= now ? now + this.intervalMs : this.nextAtMs + this.intervalMs;
        this.running = this.rpc
          .generateToAddress(1, this.address)
          .then(() => undefined)
          .catch((error: unknown) => this.logger.warn({ err: error }, "bitcoin miner: mining a block failed"))
          .finally(() => {
            this.running = null;
            this.schedule();
          });
      },
      Math.max(0, this.nextAtMs - Date.now()),
    );
  }
}
