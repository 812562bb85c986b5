/**
 * One Esplora REST server spoken to over HTTP. A 4xx answer other than a rate limit or a refusal is the
 * server's answer (404: unknown transaction; 400: a rejected broadcast) and becomes an `EsploraError`
 * with its status; no answer, a 5xx, a rate limit or a refusal is an `EndpointFault` for the pool. A
 * reply larger than the endpoint's bound is not read (`EsploraLimitError`).
 */
import { redactUrlsInText } from "../../config/redact-url.js";
import { EndpointFault } from "../rpc/errors.js";
import { faultOfStatus, httpExchange, ReplyTooLargeError, splitCredentials } from "../rpc/http-exchange.js";
import type { PoolEndpoint } from "../rpc/endpoint-pool.js";

export class EsploraError extends Error {
  /** What the server or the pool said, URLs shown as scheme, host and port: a reply may quote one. */
  readonly detail: string;

  constructor(
    readonly path: string,
    /** The server's HTTP status; null when no server answered. */
    readonly status: number | null,
    detail: string,
    cause?: unknown,
  ) {
    const safeDetail = redactUrlsInText(detail);
    super(`Esplora ${path} failed${status === null ? "" : ` (HTTP ${status})`}: ${safeDetail}`, { cause });
    this.name = "EsploraError";
    this.detail = safeDetail;
  }
}

/**
 * A read stopped at one of its bounds (esplora-read-budget.ts): it fails as a whole rather than answer
 * with part of what was asked.
 */
export class EsploraLimitError extends EsploraError {
  constructor(path: string, detail: string) {
    super(path, null, detail);
    this.name = "EsploraLimitError";
  }
}

export interface EsploraRequest {
  method?: "GET" | "POST";
  body?: string;
}

export class EsploraEndpoint implements PoolEndpoint {
  readonly label: string;
  readonly #base: string;
  readonly #authorization: string | null;
  readonly #timeoutMs: number;
  readonly #maxReplyBytes: number;

  constructor(options: { url: string; label: string; timeoutMs: number; maxReplyBytes: number }) {
    const { url, authorization } = splitCredentials(options.url);
    this.label = options.label;
    this.#base = url.replace(/\/+$/, "");
    this.#authorization = authorization;
    this.#timeoutMs = options.timeoutMs;
    this.#maxReplyBytes = options.maxReplyBytes;
  }

  async request(path: string, init: EsploraRequest = {}): Promise<string> {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers["content-type"] = "text/plain";
    if (this.#authorization !== null) headers.authorization = this.#authorization;
    let answer;
    try {
      answer = await httpExchange(this.label, `${this.#base}${path}`, {
        method: init.method ?? "GET",
        headers,
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxReplyBytes,
        ...(init.body === undefined ? {} : { body: init.body }),
      });
    } catch (error) {
      if (!(error instanceof ReplyTooLargeError)) throw error;
      throw new EsploraLimitError(
        path,
        `the reply is larger than ${this.#maxReplyBytes} bytes, more than the solver reads from one reply`,
      );
    }
    const fault = faultOfStatus(this.label, answer, Date.now());
    if (fault !== null) throw fault;
    if (answer.status >= 500)
      throw new EndpointFault(this.label, "unavailable", `${path}: ${answer.text.slice(0, 200)}`, {
        status: answer.status,
      });
    if (answer.status >= 400) throw new EsploraError(path, answer.status, answer.text.slice(0, 500));
    return answer.text;
  }
}
