import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Order } from "../../src/orderbook/types.js";

/** Rewrites an order the service returns; "hide" also leaves it out of every listing. */
export type OrderLie = (order: Order) => void | "hide";

/**
 * Sits between the solver and an honest service and rewrites chosen orders in every response, so tests
 * can show the solver refusing what a dishonest or broken service says.
 */
export class LyingProxy {
  private readonly lies = new Map<string, OrderLie>();
  private server: Server | null = null;
  url = "";
  /** While set, the service answers nothing but 503, as one that is down behind its load balancer. */
  down = false;

  /**
   * `onlyNamed`: orders no lie names are left out of every listing, so the solver first sees an order
   * with its lie: a test names the order only after creating it, and a solver listing in between saw it
   * as the service told it (it filled a swap a test meant it to refuse, honestly, and the test failed).
   */
  constructor(
    private readonly upstream: string,
    private readonly options: { onlyNamed?: boolean } = {},
  ) {}

  lieAbout(orderId: string, lie: OrderLie): void {
    this.lies.set(orderId, lie);
  }

  /** Tells the truth about this order again. */
  stopLying(orderId: string): void {
    this.lies.delete(orderId);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void (async () => {
        if (this.down) {
          response.writeHead(503, { "content-type": "text/plain" });
          response.end("service unavailable");
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const method = request.method ?? "GET";
        const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
        const upstream = await fetch(this.upstream + (request.url ?? "/"), {
          method,
          headers: {
            "service-app-id": String(request.headers["service-app-id"] ?? ""),
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body }),
        });
        const text = this.rewrite(await upstream.text());
        response.writeHead(upstream.status, { "content-type": "application/json" });
        response.end(text);
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

  /** Applies the order's lie; false when the order is to be left out of a listing. */
  private listed(order: Order): boolean {
    const lie = this.lies.get(order.order_id);
    if (lie === undefined) return this.options.onlyNamed !== true;
    return lie(order) !== "hide";
  }

  private rewrite(text: string): string {
    let body: { status: string; result?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return text;
    }
    if (typeof body.result !== "object" || body.result === null) return text;
    const result = body.result as { data?: Order[] } | Order;
    if ("order_id" in result) this.lies.get(result.order_id)?.(result);
    if ("data" in result && Array.isArray(result.data)) {
      result.data = result.data.filter((order) => this.listed(order));
    }
    return JSON.stringify(body);
  }
}
