/**
 * One work queue per lane (an order's source and destination chains): an order waits only behind orders
 * on the same chains. Under load a Bitcoin side's reads take seconds, and in one shared queue the orders
 * of a new EVM block waited behind them for as long.
 */
import PQueue from "p-queue";

export class LaneQueues {
  private readonly queues = new Map<string, PQueue>();

  constructor(private readonly concurrency: number) {}

  add<T>(lane: string, task: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(lane);
    if (queue === undefined) {
      queue = new PQueue({ concurrency: this.concurrency });
      this.queues.set(lane, queue);
    }
    return queue.add(task);
  }

  async onIdle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.onIdle()));
  }
}
