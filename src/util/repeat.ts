/**
 * Work run again a fixed time after each run ends, never two runs at once, until stopped. The work handles
 * its own errors: a rejection is swallowed so that it cannot end the repetition.
 */
export class Repeat {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /** First run after `firstDelayMs` (0: at once). */
  start(firstDelayMs = 0): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (firstDelayMs === 0) void this.run();
    else this.timer = setTimeout(() => void this.run(), firstDelayMs);
  }

  /** No further run starts; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    this.current = this.work().catch(() => undefined);
    await this.current;
    if (!this.stopped) this.timer = setTimeout(() => void this.run(), this.intervalMs);
  }
}
