/**
 * Samples the solver while orders are open: its CPU time (from /proc), the rounds it finished (from the
 * end time of its last round, which /health reports), and how many orders were open. The CPU spent per
 * open order per round is the sum of CPU over the sum of (rounds ended × orders open) across samples.
 */
export interface SamplerSources {
  opsUrl: string;
  cpuMs: () => number;
  openOrders: () => number;
}

interface Sample {
  atMs: number;
  cpuMs: number;
  lastRoundEndMs: number | null;
  open: number;
}

/** Two round ends closer than this are one round seen twice (the clocks of two processes differ slightly). */
const SAME_ROUND_MS = 50;

export class SolverSampler {
  private readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;
  private cpuAtLastRoundMs: number | null = null;
  rounds = 0;
  orderRounds = 0;
  cpuInRoundsMs = 0;

  constructor(
    private readonly sources: SamplerSources,
    private readonly intervalMs = 200,
  ) {}

  start(): void {
    const tick = (): void => {
      this.sampling = this.sample().finally(() => {
        this.sampling = null;
        if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.sampling;
    await this.sample();
  }

  /** CPU ms per open order per round over the samples; null when no round ended with orders open. */
  cpuPerOrderRoundMs(): number | null {
    return this.orderRounds === 0 ? null : this.cpuInRoundsMs / this.orderRounds;
  }

  private async sample(): Promise<void> {
    let cpuMs: number;
    try {
      cpuMs = this.sources.cpuMs();
    } catch {
      return; // The process is gone.
    }
    const atMs = Date.now();
    const lastRoundEndMs = await lastRoundEnd(this.sources.opsUrl, atMs);
    const sample = { atMs, cpuMs, lastRoundEndMs, open: this.sources.openOrders() };
    const previous = this.samples[this.samples.length - 1];
    this.samples.push(sample);
    if (previous === undefined || lastRoundEndMs === null || previous.lastRoundEndMs === null) return;
    if (lastRoundEndMs - previous.lastRoundEndMs <= SAME_ROUND_MS) return;
    // Rounds are at least a poll interval apart and sampled faster, so at most one ended in between;
    // it is charged all CPU since the round before it (background work included: it is the solver's).
    this.rounds += 1;
    const since = this.cpuAtLastRoundMs;
    this.cpuAtLastRoundMs = cpuMs;
    if (since === null || sample.open === 0) return;
    this.orderRounds += sample.open;
    this.cpuInRoundsMs += cpuMs - since;
  }
}

async function lastRoundEnd(opsUrl: string, atMs: number): Promise<number | null> {
  try {
    const response = await fetch(`${opsUrl}/health`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { checks?: { round?: { endedMsAgo?: unknown } } };
    const ago = body.checks?.round?.endedMsAgo;
    return typeof ago === "number" ? atMs - ago : null;
  } catch {
    return null;
  }
}
