import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Order } from "../../src/orderbook/types.js";

export type OrderLie = (order: Order) => void;

/**
 * Sits between the solver and an honest service and rewrites chosen orders in every response, so tests
 * can show the solver refusing what a dishonest or broken service says.
 */
export class LyingProxy {
  private readonly lies = new Map<string, OrderLie>();
  private server: Server | null = null;
  url = "";

  constructor(private readonly upstream: string) {}

  lieAbout(orderId: string, lie: OrderLie): void {
    this.lies.set(orderId, lie);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void (async () => {
        const upstream = await fetch(this.upstream + (request.url ?? "/"), {
          method: request.method ?? "GET",
          headers: {
            "service-app-id": String(request.headers["service-app-id"] ?? ""),
            accept: "application/json",
          },
        });
        const text = await upstream.text();
        response.writeHead(upstream.status, { "content-type": "application/json" });
        response.end(this.rewrite(text));
      })().catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private rewrite(text: string): string {
    let body: { status: string; result?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return text;
    }
    const result = body.result as { data?: Order[] } | Order | undefined;
    const orders: Order[] = [];
    if (result && "order_id" in result) orders.push(result);
    if (result && "data" in result && Array.isArray(result.data)) orders.push(...result.data);
    for (const order of orders) this.lies.get(order.order_id)?.(order);
    return JSON.stringify(body);
  }
}
