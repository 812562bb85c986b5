/**
 * Orders being processed or acted on right now. The round and the chain watch may both want an order at
 * the same moment; only one may hold it from its plan until its actions are claimed and sent, so that a
 * fill claimed but not yet signed is never planned and claimed a second time.
 */
export class OrdersInHand {
  private readonly held = new Set<string>();

  /** Takes the order; false when another pass holds it (that pass acts on it). */
  take(orderId: string): boolean {
    if (this.held.has(orderId)) return false;
    this.held.add(orderId);
    return true;
  }

  release(orderIds: Iterable<string>): void {
    for (const orderId of orderIds) this.held.delete(orderId);
  }
}
