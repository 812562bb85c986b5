/**
 * Sends a round's actions while the round still reads other orders: the first ready action starts a
 * short gathering window, and everything ready by its end goes out together (so batches stay full);
 * sends run one window at a time, so two never race for the same account's nonces or capacity.
 */
import type { ActionCandidate } from "./fill-gate.js";

export class RoundSender {
  private ready: ActionCandidate[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly send: (candidates: ActionCandidate[]) => Promise<void>,
    private readonly gatherMs: number,
  ) {}

  /** Actions of one processed order; sent at the end of the current gathering window. */
  add(candidates: readonly ActionCandidate[]): void {
    if (candidates.length === 0) return;
    this.ready.push(...candidates);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.gatherMs);
  }

  /** Sends what is still waiting and resolves once every send of the round is done; rethrows a failed send. */
  async finish(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flush();
    await this.sending;
    if (this.failure !== null) throw this.failure;
  }

  private flush(): void {
    const batch = this.ready.splice(0);
    if (batch.length === 0) return;
    this.sending = this.sending.then(() =>
      this.send(batch).catch((error: unknown) => {
        this.failure ??= error;
      }),
    );
  }
}
