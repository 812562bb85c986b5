import PQueue from "p-queue";
import type { z } from "zod";
import { MalformedResponseError, ServiceError } from "./errors.js";
import { describeIssues, envelopeSchema, orderPageSchema, orderSchema, quoteItemSchema } from "./schemas.js";
import type {
  ChainAssetInfo,
  ChainInfo,
  CreateOrderRequest,
  CreateOrderResult,
  ListOrdersQuery,
  Order,
  OrderPage,
  QuoteItem,
} from "./types.js";

export interface OrderbookClientOptions {
  baseUrl: string;
  appId: string;
  /** Attempts for idempotent reads; writes are sent once. */
  maxAttempts?: number;
  /** First backoff delay; doubles per attempt with jitter. */
  backoffMs?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  /**
   * Aborted when the solver stops: requests in flight end at once and none is retried or started, so a
   * service that does not answer never holds up a clean stop. Reads only wait; nothing is lost.
   */
  stopSignal?: AbortSignal;
}

type Query = Record<string, string | number | undefined>;

/** Pages of one listing read at the same time. */
const PAGES_IN_FLIGHT = 4;

/** Typed client of the service API (docs/service-api.md). Every response is validated before use. */
export class OrderbookClient {
  private readonly baseUrl: string;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OrderbookClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.maxAttempts = options.maxAttempts ?? 4;
    this.backoffMs = options.backoffMs ?? 250;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  async quote(from: string, to: string, fromAmount: bigint): Promise<QuoteItem[]> {
    const result = await this.read("/v2/quote", { from, to, from_amount: fromAmount.toString() });
    if (!Array.isArray(result)) throw new MalformedResponseError("/v2/quote", "result: must be an array");
    return result.map((item, i) => this.parse(quoteItemSchema, item, `/v2/quote result[${i}]`));
  }

  async createOrder(body: CreateOrderRequest): Promise<CreateOrderResult> {
    const result = await this.send("POST", "/v2/orders", body);
    const parsed = result as Partial<CreateOrderResult> | null;
    if (!parsed || typeof parsed.order_id !== "string" || typeof parsed.to !== "string") {
      throw new MalformedResponseError("/v2/orders", "result: must carry order_id and to");
    }
    return parsed as CreateOrderResult;
  }

  async getOrder(orderId: string): Promise<Order> {
    const path = `/v2/orders/${encodeURIComponent(orderId)}`;
    return this.parse(orderSchema, await this.read(path, {}), path);
  }

  /** One page of orders. Orders that fail validation are returned separately, never silently dropped. */
  async listOrders(
    query: ListOrdersQuery,
  ): Promise<{ page: OrderPage; malformed: MalformedResponseError[] }> {
    const raw = this.parse(orderPageSchema, await this.read("/v2/orders", { ...query }), "/v2/orders");
    const data: Order[] = [];
    const malformed: MalformedResponseError[] = [];
    raw.data.forEach((item, i) => {
      const checked = orderSchema.safeParse(item);
      if (checked.success) data.push(checked.data);
      else malformed.push(new MalformedResponseError(`/v2/orders data[${i}]`, describeIssues(checked.error)));
    });
    return { page: { ...raw, data }, malformed };
  }

  /**
   * Every page of a listing, up to `maxPages` so a misbehaving service cannot loop us forever. The first
   * page says how many there are; the rest are read a few at a time (one at a time, listing 1,000 open
   * orders held a round for seconds while the service was busy).
   */
  async listAllOrders(
    query: Omit<ListOrdersQuery, "page">,
    maxPages = 50,
  ): Promise<{ orders: Order[]; malformed: MalformedResponseError[] }> {
    const perPage = query.per_page ?? 100;
    const read = (page: number) => this.listOrders({ ...query, page, per_page: perPage });
    const first = await read(1);
    const last = Math.min(first.page.total_pages, maxPages);
    const reads = new PQueue({ concurrency: PAGES_IN_FLIGHT });
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, last - 1) }, (_, i) => reads.add(() => read(i + 2))),
    );
    const pages = [first, ...rest];
    return {
      orders: pages.flatMap((result) => result.page.data),
      malformed: pages.flatMap((result) => result.malformed),
    };
  }

  /** Relays the user's signature (EIP-712 hex, or a Starknet wallet's felts); returns the initiate transaction hash. */
  async initiate(orderId: string, signature: string | readonly string[]): Promise<string> {
    const result = await this.send("PATCH", `/v2/orders/${orderId}?action=initiate`, { signature });
    return String(result);
  }

  async refund(orderId: string, refundAddress: string): Promise<string> {
    const result = await this.send("PATCH", `/v2/orders/${orderId}?action=refund`, {
      refund_address: refundAddress,
    });
    return String(result);
  }

  /** Hands the solver's half of a Bitcoin instant refund to the service, which completes it for the user. */
  async instantRefund(orderId: string, partialTx: string): Promise<unknown> {
    return this.send("PATCH", `/v2/orders/${orderId}?action=instant-refund`, { partial_tx: partialTx });
  }

  async chains(): Promise<ChainInfo[]> {
    return (await this.read("/v2/chains", {})) as ChainInfo[];
  }

  async assets(): Promise<ChainAssetInfo[]> {
    return (await this.read("/v2/assets", {})) as ChainAssetInfo[];
  }

  private parse<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
    const checked = schema.safeParse(value);
    if (!checked.success) throw new MalformedResponseError(path, describeIssues(checked.error));
    return checked.data;
  }

  /** GET with retries: reads are idempotent, so transient failures are retried with backoff. */
  private async read(path: string, query: Query): Promise<unknown> {
    const url = this.url(path, query);
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        return await this.request("GET", url, path, undefined);
      } catch (error) {
        lastError = error;
        if (this.options.stopSignal?.aborted === true) throw error;
        const retryable = !(error instanceof ServiceError) || error.retryable;
        if (!retryable || error instanceof MalformedResponseError || attempt === this.maxAttempts)
          throw error;
        await sleep(this.backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random()));
      }
    }
    throw lastError;
  }

  private send(method: "POST" | "PATCH", path: string, body: unknown): Promise<unknown> {
    return this.request(method, this.url(path, {}), path.split("?")[0] ?? path, body);
  }

  private url(path: string, query: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async request(method: string, url: string, path: string, body: unknown): Promise<unknown> {
    const stop = this.options.stopSignal;
    stop?.throwIfAborted();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const response = await this.fetchImpl(url, {
      method,
      headers: {
        "service-app-id": this.options.appId,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: stop === undefined ? timeout : AbortSignal.any([timeout, stop]),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (!response.ok) throw new ServiceError(method, path, response.status, text.slice(0, 200));
      throw new MalformedResponseError(path, "body is not JSON");
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      if (!response.ok) throw new ServiceError(method, path, response.status, text.slice(0, 200));
      throw new MalformedResponseError(path, describeIssues(envelope.error));
    }
    if (envelope.data.status === "Error") {
      throw new ServiceError(method, path, response.status, envelope.data.error);
    }
    return envelope.data.result;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
