import type { HtlcParams } from "../chains/chain.js";
import { recordParams } from "../orderbook/record-params.js";
import type { Order, SwapRecord } from "../orderbook/types.js";

export type Side = "source" | "destination";

export class OrderShapeError extends Error {
  override readonly name = "OrderShapeError";
}

/**
 * The HTLC one side of an order describes. On Bitcoin the keys in the script are not the addresses the
 * API shows: the user's side is held by `delegate` (docs/protocol.md, "Which key is which").
 */
export function sideParams(order: Order, side: Side, userKeyIsDelegate: boolean): HtlcParams {
  const swap: SwapRecord = side === "source" ? order.source_swap : order.destination_swap;
  let initiator = swap.initiator;
  let redeemer = swap.redeemer;
  if (userKeyIsDelegate) {
    const delegate = swap.delegate;
    if (!delegate)
      throw new OrderShapeError(`order ${order.order_id}: ${side}_swap.delegate is missing on ${swap.chain}`);
    if (side === "source") initiator = delegate;
    else redeemer = delegate;
  }
  return { ...recordParams(swap), initiator, redeemer };
}
