/**
 * The solver's own quote endpoint (docs/solver-quote-api.md). The service, or an operator's integration,
 * asks it for a price; it answers with one quote item or a refusal naming why. What a request must pass
 * first (a signature, when one is required, and the limits) is the guard's (quote-guard.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Envelope, QuoteItem } from "../orderbook/types.js";
import type { QuoteRequest } from "./quote.js";
import type { QuoteAuthSettings } from "./quote-auth.js";
import { QuoteGuard, type QuoteLimitSettings } from "./quote-guard.js";
import { parseQuoteParams } from "./quote-params.js";
import { isRefusal, publicRefusalText, type QuoteRefusal } from "./refusal.js";
import {
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  kernelListenQueueCap,
  listen,
  LISTEN_BACKLOG,
} from "../util/listen.js";

export type QuoteFunction = (request: QuoteRequest) => Promise<QuoteItem | QuoteRefusal>;

export type QuoteOutcome =
  "given" | "refused" | "bad_request" | "error" | "unauthorized" | "rate_limited" | "busy";

/** The endpoint's own settings (config quote.*). */
export interface QuoteEndpointSettings {
  host: string;
  /** 0 picks a free port; the returned url carries the real one. */
  port: number;
  /** Connections the kernel may queue before the server accepts them (config quote.listenBacklog). */
  listenBacklog?: number;
  /** Idle time before the server closes a kept-alive connection (config quote.keepAliveTimeoutMs). */
  keepAliveTimeoutMs?: number;
  /** Signed requests only (config quote.auth); absent or with an empty secret, anyone may ask. */
  auth?: QuoteAuthSettings;
  /** Quotes priced at once and per client (config quote.limits); absent, no bound. */
  limits?: QuoteLimitSettings;
}

export interface QuoteServerOptions extends QuoteEndpointSettings {
  quote: QuoteFunction;
  logger: Logger;
  /**
   * Told of every quote request answered: how it ended, the seconds it took from reaching the handler and,
   * for a request answered without a quote, the reason (a refusal's, an authentication failure's or a
   * limit's code).
   */
  observe?: (outcome: QuoteOutcome, seconds: number, reason?: string) => void;
  /** Wall clock, unix ms, that request timestamps are checked against. */
  now?: () => number;
  /** Monotonic clock, ms, that clients' rates are measured with. */
  monotonicNow?: () => number;
}

export interface QuoteServer {
  url: string;
  stop(): Promise<void>;
}

function send<T>(
  response: ServerResponse,
  statusCode: number,
  body: Envelope<T>,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(statusCode, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

function sendError(
  response: ServerResponse,
  statusCode: number,
  error: string,
  headers: Record<string, string> = {},
): void {
  send(response, statusCode, { status: "Error", error }, headers);
}

interface Answered {
  outcome: QuoteOutcome;
  reason?: string;
}

interface Handler {
  options: QuoteServerOptions;
  guard: QuoteGuard;
}

async function answerQuote(
  handler: Handler,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const { outcome, reason } = await guardedOutcome(handler, request, url, response);
  handler.options.observe?.(outcome, (performance.now() - started) / 1000, reason);
}

async function guardedOutcome(
  { options, guard }: Handler,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
): Promise<Answered> {
  const admission = guard.admit(request);
  if (!admission.ok) {
    options.logger.debug(
      { outcome: admission.outcome, reason: admission.reason },
      "quote request turned away",
    );
    sendError(response, admission.status, `${admission.reason}: ${admission.message}`, admission.headers);
    return { outcome: admission.outcome, reason: admission.reason };
  }
  try {
    return await quoteOutcome(options, url, response);
  } finally {
    admission.release();
  }
}

async function quoteOutcome(
  options: QuoteServerOptions,
  url: URL,
  response: ServerResponse,
): Promise<Answered> {
  const parsed = parseQuoteParams(url.searchParams);
  if (!parsed.ok) {
    sendError(response, 400, `bad quote parameters: ${parsed.problems.join("; ")}`);
    return { outcome: "bad_request" };
  }
  const { request } = parsed;
  const pair = { from: request.from, to: request.to, fromAmount: request.fromAmount.toString() };
  try {
    const answer = await options.quote(request);
    if (isRefusal(answer)) {
      // The detail (balances, limits, exposure) stays in the log; the caller gets the reason only.
      options.logger.info({ ...pair, reason: answer.reason, detail: answer.message }, "quote refused");
      sendError(response, 422, publicRefusalText(answer));
      return { outcome: "refused", reason: answer.reason };
    }
    options.logger.debug({ ...pair, toAmount: answer.destination.amount }, "quote given");
    send(response, 200, { status: "Ok", result: answer });
    return { outcome: "given" };
  } catch (error) {
    options.logger.error({ ...pair, err: error }, "quote failed");
    sendError(response, 500, "internal error while quoting; see the solver's log");
    return { outcome: "error" };
  }
}

function route(handler: Handler, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? "/", "http://localhost");
  const known = url.pathname === "/quote" || url.pathname === "/health";
  if (!known) {
    sendError(response, 404, `no route ${url.pathname}; try GET /quote or GET /health`);
    return;
  }
  if (request.method !== "GET") {
    response.setHeader("allow", "GET");
    sendError(response, 405, `${request.method ?? "?"} ${url.pathname} is not allowed; use GET`);
    return;
  }
  if (url.pathname === "/health") {
    send(response, 200, { status: "Ok", result: "online" });
    return;
  }
  void answerQuote(handler, request, url, response);
}

export async function startQuoteServer(options: QuoteServerOptions): Promise<QuoteServer> {
  const guard = new QuoteGuard({
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.monotonicNow === undefined ? {} : { monotonicNow: options.monotonicNow }),
  });
  const handler: Handler = { options, guard };
  const server = createServer(
    { keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS },
    (request, response) => route(handler, request, response),
  );
  const listenBacklog = options.listenBacklog ?? LISTEN_BACKLOG;
  await listen(server, options.port, options.host, listenBacklog);
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  const signed = options.auth !== undefined && options.auth.secret !== "";
  options.logger.info(
    { url, listenBacklog, signedRequestsOnly: signed, limits: options.limits ?? null },
    "quote server listening",
  );
  const kernelCap = kernelListenQueueCap();
  if (kernelCap !== null && kernelCap < listenBacklog) {
    options.logger.warn(
      { listenBacklog, somaxconn: kernelCap },
      "the kernel caps the quote endpoint's accept queue below quote.listenBacklog (net.core.somaxconn): a burst of new connections beyond it waits a SYN retry",
    );
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
