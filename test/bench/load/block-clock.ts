/**
 * When each block of each chain appeared, as seen by polling the chains' tips directly (never through the
 * solver's counting proxies). Fill latency is measured in blocks of the source chain: the source's height
 * at the moment the fill's block appeared on the destination chain, against the height at which the
 * source reached its confirmations. Polling every 100 ms against 1 s blocks keeps the error well below a
 * block.
 */
export type TipReader = () => Promise<number>;

export class BlockClock {
  /** Per chain: first-seen time of each height, heights ascending. */
  private readonly seen = new Map<string, { height: number; atMs: number }[]>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly readers: ReadonlyMap<string, TipReader>,
    private readonly intervalMs = 100,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    await this.poll();
    const tick = (): void => {
      this.polling = this.poll().finally(() => {
        this.polling = null;
        if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    this.timer = setTimeout(tick, this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }

  /** Every chain's heights with the time each was first seen. */
  blocksSeen(): Record<string, { height: number; atMs: number }[]> {
    return Object.fromEntries(this.seen);
  }

  /** A height skipped between two polls counts as seen at the second. */
  record(chain: string, height: number, atMs: number): void {
    const list = this.seen.get(chain) ?? [];
    this.seen.set(chain, list);
    const last = list[list.length - 1];
    for (let h = last === undefined ? height : last.height + 1; h <= height; h++)
      list.push({ height: h, atMs });
  }

  /** When `height` first appeared on `chain`; null when it has not been seen. */
  seenAt(chain: string, height: number): number | null {
    const list = this.seen.get(chain) ?? [];
    const first = list[0];
    if (first === undefined || height < first.height) return null;
    return list[height - first.height]?.atMs ?? null;
  }

  /** The chain's height at `atMs`: the highest block seen at or before then; null before the first poll. */
  heightAt(chain: string, atMs: number): number | null {
    const list = this.seen.get(chain) ?? [];
    let lo = 0;
    let hi = list.length - 1;
    let found: number | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const entry = list[mid] as { height: number; atMs: number };
      if (entry.atMs <= atMs) {
        found = entry.height;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  private async poll(): Promise<void> {
    await Promise.all(
      [...this.readers].map(async ([chain, read]) => {
        try {
          this.record(chain, await read(), this.now());
        } catch {
          // A missed poll only widens the next one's step; the run's figures say how many were seen.
        }
      }),
    );
  }
}

/** eth_blockNumber straight from an EVM node. */
export function evmTipReader(rpcUrl: string): TipReader {
  return async () => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    const body = (await response.json()) as { result?: string };
    if (typeof body.result !== "string") throw new Error(`no block number from ${rpcUrl}`);
    return Number.parseInt(body.result, 16);
  };
}
