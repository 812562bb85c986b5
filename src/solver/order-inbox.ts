/**
 * Where work on orders comes in. The sources (the listing round, the scout, the chain watch) only push
 * order ids; the inbox runs at most one pass per order at a time, and holds the order from its pass
 * until the dispatcher says its actions are out, so that a fill claimed but not yet signed is never
 * planned and claimed again. A new block that concerns an order in hand is not dropped (the pass in hand
 * may have read the chain before the block): the asks are merged into one, made again once it is let go.
 *
 * Each stream has its own queues, by lane (an order's source and destination chains): an order waits
 * only behind orders of its own stream and chains. Under load a Bitcoin side's reads take seconds, and
 * in one shared queue a new EVM block's orders waited behind them for as long; a burst of new orders'
 * first passes held up the fills of orders known before their lock (claimed 3.6 s after it in the load
 * benchmark). The round's passes share one queue: a round reads every open order, and its reads in
 * flight are bounded as a whole.
 */
import PQueue from "p-queue";
import type { ActionCandidate } from "./fill-gate.js";
import type { TipOf } from "./order-facts.js";

/** Which source asked: the listing round, a chain's new block, or the scout's newly listed orders. */
export type Stream = "round" | "block" | "scout";

export interface OrderAsk {
  orderId: string;
  /** `source chain>destination chain`. */
  lane: string;
}

export interface PassFailure {
  orderId: string;
  error: unknown;
}

export function laneOf(sourceChain: string, destinationChain: string): string {
  return `${sourceChain}>${destinationChain}`;
}

export interface InboxOptions {
  /** Passes under way at once per queue. */
  concurrency: number;
  pass: { run(orderId: string, tipOf: TipOf): Promise<ActionCandidate[]> };
  /** Orders a new block concerned while they were in hand, let go now: to be asked for again. */
  askAgain: (asks: readonly OrderAsk[]) => void;
}

export class OrderInbox {
  private readonly queues = new Map<string, PQueue>();
  /** Orders in hand, by id, with their lane. */
  private readonly inHand = new Map<string, string>();
  /** Orders in hand that a new block concerned since they were taken. */
  private readonly wantedAgain = new Set<string>();
  private closed = false;

  constructor(private readonly options: InboxOptions) {}

  /**
   * Passes over these orders; each one's actions go to `deliver` as soon as its pass ends. An order in
   * hand is skipped (its pass acts on it); one the block stream asks for is asked for again once let go.
   * Resolves when every pass has ended, with the failures (a journal read that threw).
   */
  async ask(
    asks: readonly OrderAsk[],
    stream: Stream,
    tipOf: TipOf,
    deliver: (candidates: ActionCandidate[]) => void,
  ): Promise<PassFailure[]> {
    const failures: PassFailure[] = [];
    await Promise.all(
      asks.map(async ({ orderId, lane }) => {
        try {
          await this.queue(stream, lane).add(async () => {
            if (!this.take(orderId, lane, stream === "block")) return;
            let candidates: ActionCandidate[] = [];
            try {
              candidates = await this.options.pass.run(orderId, tipOf);
            } finally {
              if (candidates.length === 0) this.letGo([orderId]);
            }
            deliver(candidates);
          });
        } catch (error) {
          failures.push({ orderId, error });
        }
      }),
    );
    return failures;
  }

  /** The dispatcher is done with these orders' actions (sent, refused or failed): they may be passed again. */
  letGo(orderIds: Iterable<string>): void {
    const again: OrderAsk[] = [];
    for (const orderId of orderIds) {
      const lane = this.inHand.get(orderId);
      this.inHand.delete(orderId);
      if (this.wantedAgain.delete(orderId) && lane !== undefined) again.push({ orderId, lane });
    }
    if (again.length > 0 && !this.closed) this.options.askAgain(again);
  }

  /** No more asks are made again from now on (the solver is stopping). */
  close(): void {
    this.closed = true;
  }

  async onIdle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.onIdle()));
  }

  private take(orderId: string, lane: string, wantAgain: boolean): boolean {
    if (this.inHand.has(orderId)) {
      if (wantAgain) this.wantedAgain.add(orderId);
      return false;
    }
    this.inHand.set(orderId, lane);
    return true;
  }

  private queue(stream: Stream, lane: string): PQueue {
    const key = stream === "round" ? stream : `${stream}:${lane}`;
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = new PQueue({ concurrency: this.options.concurrency });
      this.queues.set(key, queue);
    }
    return queue;
  }
}
