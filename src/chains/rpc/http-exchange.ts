/**
 * One HTTP exchange with an RPC endpoint. A network failure, a timeout or a body cut off half-way
 * becomes an `EndpointFault`; the status is left to the protocol client, because some protocols answer
 * their errors with HTTP 500 and a body (bitcoind) while others mean "try elsewhere" by it.
 * `faultOfStatus` then names the statuses that always mean the endpoint failed. A reply may be bounded
 * (`maxBytes`): a larger one is not read on, and is the endpoint's answer, not its fault, since any
 * other endpoint holding the same data would answer as much.
 */
import { EndpointFault } from "./errors.js";
import { parseRetryAfter } from "./retry-after.js";

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
}

export interface HttpExchange {
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  /** Bytes of the reply read at most; beyond, `ReplyTooLargeError`. Unbounded when absent. */
  maxBytes?: number;
}

export class ReplyTooLargeError extends Error {
  constructor(
    readonly endpoint: string,
    readonly maxBytes: number,
  ) {
    super(`${endpoint} replied with more than ${maxBytes} bytes`);
    this.name = "ReplyTooLargeError";
  }
}

/** The URL without user info, and that user info as a Basic authorization (fetch refuses URLs with it). */
export function splitCredentials(
  raw: string,
  fallback: { user?: string; password?: string } = {},
): { url: string; authorization: string | null } {
  const url = new URL(raw);
  const user = url.username !== "" ? decodeURIComponent(url.username) : (fallback.user ?? "");
  const password = url.username !== "" ? decodeURIComponent(url.password) : (fallback.password ?? "");
  url.username = "";
  url.password = "";
  const authorization =
    user === "" && password === "" ? null : `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  return { url: url.toString(), authorization };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const causeText = cause instanceof Error ? cause.message : "";
  return [error.message, typeof code === "string" ? code : causeText].filter((t) => t !== "").join(": ");
}

export async function httpExchange(label: string, url: string, request: HttpExchange): Promise<HttpAnswer> {
  const fetchImpl = request.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: request.method,
      ...(request.headers === undefined ? {} : { headers: request.headers }),
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError")
      throw new EndpointFault(label, "timeout", `no answer within ${request.timeoutMs} ms`);
    throw new EndpointFault(label, "unavailable", reasonOf(error));
  }
  let text: string;
  try {
    text =
      request.maxBytes === undefined
        ? await response.text()
        : await boundedText(label, response, request.maxBytes);
  } catch (error) {
    if (error instanceof ReplyTooLargeError) throw error;
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new EndpointFault(
      label,
      timedOut ? "timeout" : "unavailable",
      timedOut ? `reply not complete within ${request.timeoutMs} ms` : `reply cut off: ${reasonOf(error)}`,
      { status: response.status },
    );
  }
  return { status: response.status, text, headers: response.headers };
}

/** The body as text, read no further than `maxBytes`: a larger one is dropped unread. */
async function boundedText(label: string, response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes || response.body === null) {
    await response.body?.cancel();
    if (declared > maxBytes) throw new ReplyTooLargeError(label, maxBytes);
    return "";
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ReplyTooLargeError(label, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Statuses that mean the endpoint failed, whatever the body says; null for any other status. */
export function faultOfStatus(label: string, answer: HttpAnswer, nowMs: number): EndpointFault | null {
  const { status } = answer;
  const excerpt = answer.text.slice(0, 200);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"), nowMs);
    return new EndpointFault(label, "rate-limited", excerpt || "too many requests", { status, retryAfterMs });
  }
  if (status === 401 || status === 403) return new EndpointFault(label, "refused", excerpt, { status });
  if (status === 408 || status === 502 || status === 503 || status === 504)
    return new EndpointFault(label, "unavailable", excerpt || "gateway or service unavailable", { status });
  return null;
}
