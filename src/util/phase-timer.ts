/** Times the named phases of one piece of work, for the log line that says where a slow one spent it. */
export class PhaseTimer {
  readonly phasesMs: Record<string, number> = {};
  readonly #started = performance.now();

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const at = performance.now();
    try {
      return await work();
    } finally {
      this.phasesMs[phase] = Math.round(performance.now() - at);
    }
  }

  /** Milliseconds since the timer was made. */
  elapsedMs(): number {
    return Math.round(performance.now() - this.#started);
  }
}
