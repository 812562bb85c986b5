/**
 * Sends actions as orders are processed, in batches: the first ready action starts a short gathering
 * window, and everything ready by its end goes out together (so batches stay full). A round has its own,
 * whose windows are sent one at a time; the passes beside the round (new blocks, new orders, orders let
 * go) share one for the runner's life whose windows may overlap, so a slow send (a Bitcoin fill reading
 * its addresses) never holds the next block's fills. Overlapping sends are safe: each account's nonces
 * are taken one build at a time and the fill gate admits fills against every claim before them.
 */
import { moment } from "../util/moment.js";
import type { ActionCandidate } from "./fill-gate.js";

export interface GatheringOptions {
  gatherMs: number;
  /**
   * A held window (`hold`) stays open past `gatherMs` until its holders let go, at most this long after
   * its first action; unset, holds are ignored.
   */
  maxGatherMs?: number;
  /** Whether a window's send may start while an earlier one is still under way. */
  overlap: boolean;
}

export class GatheringSender {
  private ready: ActionCandidate[] = [];
  private timer: NodeJS.Timeout | null = null;
  /**
   * Set while a held window is past `gatherMs`: it is sent when the last holder lets go, or when this
   * fires at the cap.
   */
  private capTimer: NodeJS.Timeout | null = null;
  /** When the current window's first action came (`moment()`: a clock step never stretches the cap). */
  private windowOpenedAt = 0;
  private holders = 0;
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
    if (this.timer !== null || this.capTimer !== null) return;
    this.windowOpenedAt = moment();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.windowDue();
    }, this.options.gatherMs);
  }

  /**
   * Keeps the current window (or the next one) open while the caller is still processing orders whose
   * actions belong with it: one block's orders then share one gate pass and full batches, where the last
   * of them missed the window and waited behind its send. Returns the release; call it once.
   */
  hold(): () => void {
    if (this.options.maxGatherMs === undefined) return () => undefined;
    this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      if (this.holders === 0 && this.capTimer !== null) this.flush();
    };
  }

  /** Sends what is still waiting and resolves once every send so far is done; rethrows a failed send. */
  async finish(): Promise<void> {
    this.flush();
    await Promise.all([this.sending, ...this.underWay]);
    if (this.failure !== null) throw this.failure;
  }

  private windowDue(): void {
    const { maxGatherMs } = this.options;
    if (this.holders === 0 || maxGatherMs === undefined) return this.flush();
    const capMs = Math.max(0, this.windowOpenedAt + maxGatherMs - moment());
    this.capTimer = setTimeout(() => this.flush(), capMs);
  }

  private flush(): void {
    for (const timer of [this.timer, this.capTimer]) if (timer !== null) clearTimeout(timer);
    this.timer = null;
    this.capTimer = null;
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
