/**
 * `?action=instant-refund` and `?action=refund` on a Bitcoin source.
 *
 * instant-refund (sent by the solver when it declines a funded source): body `{partial_tx}`, the
 * solver's half; the service checks it pays the source owner and completes it with the per-order
 * initiator key, then stores it as `source_swap.instant_refund_tx` for the user to broadcast.
 *
 * refund (sent by the user once the CSV lock passed): body `{refund_address}`; the service spends the
 * HTLC through the refund leaf to that address and broadcasts; the result is the txid.
 */
import type { Order } from "htlc-solver/orderbook/types.js";
import type { UserRefunds } from "../chains/service-chain.js";
import { chainOf, type ServiceContext } from "../context.js";
import { conflict, notFound } from "../errors.js";
import { requireObject, requireString } from "../validate.js";

export async function instantRefundOrder(
  ctx: ServiceContext,
  orderId: string,
  body: unknown,
): Promise<string> {
  return oneAtATime(ctx, orderId, async (order, refunds) => {
    const partialTx = requireString(requireObject(body, "request body"), "partial_tx", "partial_tx");
    const refundAddress = order.source_swap.initiator;
    if (refundAddress === "") {
      throw conflict(
        `order ${orderId} has no source owner address to refund to; use action=refund after expiry`,
      );
    }
    const { txid, txHex } = await refunds.completeInstantRefund(order.source_swap, partialTx, refundAddress);
    // Read again: the order may have changed while the chain was read.
    const latest = ctx.orders.get(orderId);
    if (latest !== undefined) {
      const next: Order = {
        ...latest.order,
        source_swap: { ...latest.order.source_swap, instant_refund_tx: txHex },
      };
      ctx.orders.update(next, latest.settled);
    }
    ctx.logger.info({ orderId, txid }, "instant refund completed for the user");
    return txid;
  });
}

export async function refundOrder(ctx: ServiceContext, orderId: string, body: unknown): Promise<string> {
  return oneAtATime(ctx, orderId, async (order, refunds) => {
    const refundAddress = requireString(
      requireObject(body, "request body"),
      "refund_address",
      "refund_address",
    );
    const txid = await refunds.refund(order.source_swap, refundAddress);
    ctx.relays.record(orderId, "refund", order.source_swap.chain, txid, ctx.now());
    ctx.logger.info({ orderId, txid }, "source refunded to the user");
    return txid;
  });
}

async function oneAtATime(
  ctx: ServiceContext,
  orderId: string,
  run: (order: Order, refunds: UserRefunds) => Promise<string>,
): Promise<string> {
  const order = ctx.orders.get(orderId)?.order;
  if (order === undefined) throw notFound(`unknown order ${orderId}`);
  const refunds = chainOf(ctx, order.source_swap.chain).userRefunds;
  if (refunds === null) {
    throw conflict(
      `refunds through the service apply to Bitcoin sources only; order ${orderId} has a source on ${order.source_swap.chain}`,
    );
  }
  if (order.source_swap.redeem_tx_hash !== "" || order.source_swap.refund_tx_hash !== "") {
    throw conflict(`the source of order ${orderId} is already redeemed or refunded`);
  }
  if (ctx.refunding.has(orderId)) throw conflict(`a refund of order ${orderId} is being handled right now`);
  ctx.refunding.add(orderId);
  try {
    return await run(order, refunds);
  } finally {
    ctx.refunding.delete(orderId);
  }
}
