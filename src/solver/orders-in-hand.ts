/**
 * Orders being processed or acted on right now. The round and the chain watch may both want an order at
 * the same moment; only one may hold it from its plan until its actions are claimed and sent, so that a
 * fill claimed but not yet signed is never planned and claimed a second time.
 *
 * A new block that concerns an order another pass holds is not dropped: that pass may have read the chain
 * before the block, and the next round may be far off. The order is asked for again once it is let go.
 */
export class OrdersInHand {
  private readonly held = new Set<string>();
  /** Held orders a new block concerned since they were taken. */
  private readonly wantedAgain = new Set<string>();

  /**
   * Takes the order; false when another pass holds it (that pass acts on it). With `wantAgain`, a refused
   * order is handed back by `release` to be processed again.
   */
  take(orderId: string, wantAgain = false): boolean {
    if (this.held.has(orderId)) {
      if (wantAgain) this.wantedAgain.add(orderId);
      return false;
    }
    this.held.add(orderId);
    return true;
  }

  /** Lets the orders go; returns those wanted again while they were held. */
  release(orderIds: Iterable<string>): string[] {
    const again: string[] = [];
    for (const orderId of orderIds) {
      this.held.delete(orderId);
      if (this.wantedAgain.delete(orderId)) again.push(orderId);
    }
    return again;
  }
}
