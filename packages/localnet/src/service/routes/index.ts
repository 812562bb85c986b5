/** Every endpoint of the local service. */
import type { ServiceContext } from "../context.js";
import type { Route } from "../http/router.js";
import { createOrder } from "../orders/create-order.js";
import { getAssets, getChains } from "./chains.js";
import { getHealth } from "./health.js";
import { getOrder, listOrders, orderAction } from "./orders.js";
import { getQuote } from "./quote.js";

export function serviceRoutes(ctx: ServiceContext): Route[] {
  return [
    { methods: ["GET"], pattern: "/health", handler: () => getHealth(ctx) },
    { methods: ["GET"], pattern: "/v2/quote", handler: (request) => getQuote(ctx, request) },
    { methods: ["GET"], pattern: "/v2/orders", handler: (request) => listOrders(ctx, request) },
    { methods: ["POST"], pattern: "/v2/orders", handler: (request) => createOrder(ctx, request.body) },
    { methods: ["GET"], pattern: "/v2/orders/:id", handler: (request) => getOrder(ctx, request) },
    {
      methods: ["PATCH", "POST"],
      pattern: "/v2/orders/:id",
      handler: (request) => orderAction(ctx, request),
    },
    { methods: ["GET"], pattern: "/v2/chains", handler: () => getChains(ctx) },
    { methods: ["GET"], pattern: "/v2/assets", handler: (request) => getAssets(ctx, request) },
  ];
}
