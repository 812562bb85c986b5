/** Order endpoints: create, read one, list with filters, and the per-order actions. */
import { ORDER_STATUSES, type Order, type OrderPage, type OrderStatus } from "htlc-solver/orderbook/types.js";
import type { ServiceContext } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import type { ApiRequest } from "../http/router.js";
import { initiateOrder } from "../orders/initiate-order.js";
import { instantRefundOrder, refundOrder } from "../orders/user-refund-actions.js";
import type { OrderFilter } from "../store/order-store.js";
import { parsePositiveInt } from "../validate.js";

const ORDER_ID = /^[0-9a-fA-F]{64}$/;
const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const MAX_PER_PAGE = 100;
const STATUSES: readonly OrderStatus[] = ORDER_STATUSES;

export function getOrder(ctx: ServiceContext, request: ApiRequest): Promise<Order> {
  const id = orderIdParam(request);
  const stored = ctx.orders.get(id);
  if (stored === undefined) return Promise.reject(notFound(`unknown order ${id}`));
  return Promise.resolve(stored.order);
}

export function listOrders(ctx: ServiceContext, request: ApiRequest): Promise<OrderPage> {
  const query = request.query;
  const page = parsePositiveInt(query.get("page"), "page", 1);
  const perPage = Math.min(parsePositiveInt(query.get("per_page"), "per_page", 10), MAX_PER_PAGE);
  const { orders, total } = ctx.orders.list(parseFilter(query), page, perPage);
  return Promise.resolve({
    data: orders,
    page,
    per_page: perPage,
    total_items: total,
    total_pages: Math.ceil(total / perPage),
  });
}

/** PATCH or POST /v2/orders/{id}?action=initiate|refund|instant-refund. */
export async function orderAction(ctx: ServiceContext, request: ApiRequest): Promise<unknown> {
  const id = orderIdParam(request);
  const action = request.query.get("action");
  if (action === "initiate") return initiateOrder(ctx, id, request.body);
  if (action === "refund") return refundOrder(ctx, id, request.body);
  if (action === "instant-refund") return instantRefundOrder(ctx, id, request.body);
  throw badRequest(
    `query parameter action must be initiate, refund or instant-refund, got ${JSON.stringify(action)}`,
  );
}

function orderIdParam(request: ApiRequest): string {
  const id = request.params.id ?? "";
  if (!ORDER_ID.test(id)) throw badRequest(`order id ${id} is not 64 hexadecimal characters`);
  return id.toLowerCase();
}

function parseFilter(query: URLSearchParams): OrderFilter {
  const filter: OrderFilter = {};
  const text = (name: string): string | undefined => {
    const value = query.get(name);
    return value === null || value === "" ? undefined : value;
  };
  filter.fromOwner = text("from_owner")?.toLowerCase();
  filter.toOwner = text("to_owner")?.toLowerCase();
  filter.address = text("address")?.toLowerCase();
  filter.fromChain = text("from_chain");
  filter.toChain = text("to_chain");
  const txHash = text("tx_hash");
  if (txHash !== undefined) {
    if (!TX_HASH.test(txHash)) throw badRequest(`tx_hash ${txHash} is not a 64-hex transaction hash`);
    filter.txHash = txHash.toLowerCase().replace(/^0x/, "");
  }
  const status = text("status");
  if (status !== undefined) filter.statuses = status.split(",").map(parseStatus);
  return filter;
}

function parseStatus(value: string): OrderStatus {
  const status = STATUSES.find((known) => known === value.trim());
  if (status === undefined) throw badRequest(`status ${value} is not one of ${STATUSES.join(", ")}`);
  return status;
}
