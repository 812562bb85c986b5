/**
 * Every chain's tip, read a few times per block, and what each new block means for the orders followed.
 * Between full rounds, an order whose HTLC changed in a new block (a source locked, a fill redeemed,
 * a refund) is processed at once, so that its fill or redeem goes out for the next block instead of at
 * the next round, and so is every order whose fill waits only for the chain to grow (confirmations); on
 * a chain that cannot list its changed HTLCs, every order whose fill waits on it is processed at each
 * of its blocks. The tips it keeps are also the freshest a
 * round can use: always read before the HTLC reads they are paired with.
 */
import type { Logger } from "pino";
import { readTip, type RoundTip } from "./facts.js";
import type { ChainRegistry, SolverChain } from "./solver-chain.js";
import type { SourceWait } from "./watched-orders.js";

/**
 * Blocks asked for in one changed-HTLC request; a watch further behind (a chain idle for long, an
 * endpoint down) leaves the older ones to the round.
 */
const MAX_SCAN_BLOCKS = 1_000n;

/** After a new block, the next tip read waits this share of the chain's shortest block time. */
const QUIET_SHARE_OF_BLOCK = 0.8;

export interface ChainWatchOptions {
  chains: ChainRegistry;
  /** Tip reads while a block is due. */
  intervalMs: number;
  /** Followed orders with an HTLC at one of these swap ids on this chain. */
  ordersAt: (chain: string, swapIds: readonly string[]) => string[];
  /** Whether any followed order has an HTLC on this chain; an idle chain is not read. */
  follows: (chain: string) => boolean;
  /** Orders whose fill waits on this chain's next block: all of them, or only those waiting this way. */
  waitingOn: (chain: string, only?: SourceWait) => string[];
  /**
   * Hands these orders over to be processed now, with these tips. The watch goes on to the chain's next
   * block without waiting for them: orders that read a slow chain must not hold up the next block's.
   */
  wake: (orderIds: readonly string[], tips: ReadonlyMap<string, RoundTip>) => void;
  logger: Logger;
  now?: () => number;
}

export class ChainWatch {
  private readonly tips = new Map<string, RoundTip>();
  /** Per chain, the highest block whose changed HTLCs were handed on. */
  private readonly scanned = new Map<string, bigint>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ticks = new Set<Promise<void>>();
  private readonly now: () => number;
  private stopped = true;

  constructor(private readonly options: ChainWatchOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    for (const chain of this.options.chains.values()) this.schedule(chain, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.ticks]);
  }

  /** The latest tip read of a chain; undefined before the first. */
  tip(chain: string): RoundTip | undefined {
    return this.tips.get(chain);
  }

  /**
   * One look at a chain: its tip, and when it moved, the orders its new blocks concern. Returns when the
   * new tip was read, or null when the chain has not moved.
   */
  async look(chain: SolverChain): Promise<number | null> {
    const name = chain.config.name;
    const tip = await readTip(chain, this.now);
    const { height, readAtMs } = tip;
    const previous = this.tips.get(name);
    this.tips.set(name, tip);
    // At the first look, and after the chain went back (a reorg), only the tip's block is looked into:
    // the round reads every order again anyway.
    let scanned = this.scanned.get(name) ?? height - 1n;
    if (scanned > height) scanned = height - 1n;
    const moved = previous === undefined || previous.height !== height ? readAtMs : null;
    if (scanned === height) return moved;
    const first = height - scanned > MAX_SCAN_BLOCKS ? height - MAX_SCAN_BLOCKS + 1n : scanned + 1n;
    const changed = (await chain.reader.changedSwapIds?.(first, height)) ?? null;
    const orderIds =
      changed === null
        ? this.options.waitingOn(name)
        : [...new Set([...this.options.ordersAt(name, changed), ...this.options.waitingOn(name, "block")])];
    this.scanned.set(name, height);
    if (orderIds.length > 0) this.options.wake(orderIds, new Map(this.tips));
    return moved;
  }

  private schedule(chain: SolverChain, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      const tick = this.tick(chain);
      this.ticks.add(tick);
      void tick.finally(() => this.ticks.delete(tick));
    }, delayMs);
    this.timers.set(chain.config.name, timer);
  }

  private async tick(chain: SolverChain): Promise<void> {
    const { intervalMs, logger } = this.options;
    let delayMs = intervalMs;
    if (!this.options.follows(chain.config.name)) return this.schedule(chain, delayMs);
    try {
      const movedAtMs = await this.look(chain);
      // No block can follow sooner than the chain's shortest block time: no reads until it is nearly due.
      if (movedAtMs !== null) {
        const due = movedAtMs + chain.config.minBlockTimeMs * QUIET_SHARE_OF_BLOCK - this.now();
        delayMs = Math.max(intervalMs, due);
      }
    } catch (error) {
      logger.warn(
        { err: error, chain: chain.config.name },
        "chain watch could not read the chain; trying again",
      );
    }
    this.schedule(chain, delayMs);
  }
}
