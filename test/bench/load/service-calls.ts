/**
 * The two calls of a user's opening that ask the solver for a price through the service, timed and
 * classified: GET /v2/quote (the service asks the solver, waiting at most its quote timeout) and
 * POST /v2/orders (the service asks the solver again and checks the order against that quote). A quote
 * answered 404 after the service's timeout is the solver not answering in time; the service answers 502
 * when an order's live quote did not come back.
 */
import type { LocalServiceSolverConfig } from "@htlc-solver/localnet/service/config.js";
import { requestSolverQuote } from "@htlc-solver/localnet/service/quotes/solver-client.js";
import type { CreateOrderRequest, CreateOrderResult, QuoteItem } from "../../../src/orderbook/types.js";

export interface ServiceEndpoint {
  url: string;
  appId: string;
  /** The service's wait for a solver's quote (3 s on the localnet). */
  quoteTimeoutMs: number;
}

export type QuoteOutcome = "answered" | "timeout" | "refused";

export interface TimedQuote {
  outcome: QuoteOutcome;
  ms: number;
  status: number;
  quote: QuoteItem | null;
}

export type CreateOutcome = "created" | "bad_gateway" | "failed";

export interface TimedCreate {
  outcome: CreateOutcome;
  ms: number;
  status: number;
  result: CreateOrderResult | null;
  error: string | null;
}

interface Envelope<T> {
  status?: string;
  result?: T;
  error?: string;
}

export async function timedQuote(
  service: ServiceEndpoint,
  request: { from: string; to: string; amount: bigint },
): Promise<TimedQuote> {
  const url = new URL("/v2/quote", service.url);
  url.searchParams.set("from", request.from);
  url.searchParams.set("to", request.to);
  url.searchParams.set("from_amount", request.amount.toString());
  const started = performance.now();
  let status = 0;
  let body: Envelope<QuoteItem[]> = {};
  try {
    const response = await fetch(url, { headers: { "service-app-id": service.appId } });
    status = response.status;
    body = (await response.json()) as Envelope<QuoteItem[]>;
  } catch {
    // No answer at all counts as refused below, with status 0.
  }
  const ms = performance.now() - started;
  const quote = status === 200 ? (body.result?.[0] ?? null) : null;
  if (quote !== null) return { outcome: "answered", ms, status, quote };
  // The service answers "no quote" (404) when the solver gave none; after its timeout, none came in time.
  const outcome = status === 404 && ms >= service.quoteTimeoutMs ? "timeout" : "refused";
  return { outcome, ms, status, quote: null };
}

/** One quote straight from the solver's endpoint, over the service's own client (its pooled connections). */
export async function timedSolverQuote(
  solver: LocalServiceSolverConfig,
  request: { from: string; to: string; amount: bigint },
  timeoutMs: number,
): Promise<TimedQuote> {
  const started = performance.now();
  const answer = await requestSolverQuote(
    solver,
    { from: request.from, to: request.to, fromAmount: request.amount },
    timeoutMs,
  );
  const ms = performance.now() - started;
  if (answer.kind === "quote") return { outcome: "answered", ms, status: 200, quote: answer.quote };
  const timedOut = answer.kind === "unreachable" && answer.reason.startsWith("no answer within");
  return { outcome: timedOut ? "timeout" : "refused", ms, status: 0, quote: null };
}

export async function timedCreate(
  service: ServiceEndpoint,
  request: CreateOrderRequest,
): Promise<TimedCreate> {
  const started = performance.now();
  let status = 0;
  let body: Envelope<CreateOrderResult> = {};
  let error: string | null = null;
  try {
    const response = await fetch(new URL("/v2/orders", service.url), {
      method: "POST",
      headers: { "service-app-id": service.appId, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    status = response.status;
    body = (await response.json()) as Envelope<CreateOrderResult>;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const ms = performance.now() - started;
  if (status === 200 && body.result !== undefined)
    return { outcome: "created", ms, status, result: body.result, error };
  return {
    outcome: status === 502 ? "bad_gateway" : "failed",
    ms,
    status,
    result: null,
    error: error ?? body.error ?? `HTTP ${status}`,
  };
}
