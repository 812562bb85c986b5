/**
 * Sends actions as orders are processed, in batches: the first ready action starts a short gathering
 * window, and everything ready by its end goes out together (so batches stay full). A round has its own,
 * whose windows are sent one at a time; the passes beside the round (new blocks, new orders, orders let
 * go) share one for the runner's life whose windows may overlap, so a slow send (a Bitcoin fill reading
 * its addresses) never holds the next block's fills. Overlapping sends are safe: each account's nonces
 * are taken one build at a time and the fill gate admits fills against every claim before them.
 */
import type { ActionCandidate } from "./fill-gate.js";

export interface GatheringOptions {
  gatherMs: number;
  /** Whether a window's send may start while an earlier one is still under way. */
  overlap: boolean;
}

export class GatheringSender {
  private ready: ActionCandidate[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** The last serial send (each chained on the one before), or every overlapping send still under way. */
  private sending: Promise<void> = Promise.resolve();
  private readonly underWay = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(
    private readonly send: (candidates: ActionCandidate[]) => Promise<void>,
    private readonly options: GatheringOptions,
  ) {}

  /** Actions of one processed order; sent at the end of the current gathering window. */
  add(candidates: readonly ActionCandidate[]): void {
    if (candidates.length === 0) return;
    this.ready.push(...candidates);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.options.gatherMs);
  }

  /** Sends what is still waiting and resolves once every send so far is done; rethrows a failed send. */
  async finish(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flush();
    await Promise.all([this.sending, ...this.underWay]);
    if (this.failure !== null) throw this.failure;
  }

  private flush(): void {
    const batch = this.ready.splice(0);
    if (batch.length === 0) return;
    const sendBatch = () =>
      this.send(batch).catch((error: unknown) => {
        this.failure ??= error;
      });
    if (!this.options.overlap) {
      this.sending = this.sending.then(sendBatch);
      return;
    }
    const sent = sendBatch();
    this.underWay.add(sent);
    void sent.finally(() => this.underWay.delete(sent));
  }
}
