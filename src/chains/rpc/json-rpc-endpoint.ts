/**
 * One JSON-RPC 2.0 endpoint spoken to over HTTP, for the families whose nodes speak it (EVM, Solana). It
 * tells the pool apart "the endpoint failed" (`EndpointFault`: unreachable, timed out, rate-limited, a
 * node that cannot answer now) from the node's own answer, which the family turns into its own error.
 * Errors name the endpoint by its redacted label and carry only the method, never the parameters, which
 * can hold a signed transaction or a secret.
 */
import { EndpointFault, type FaultKind } from "./errors.js";
import { faultOfStatus, httpExchange, splitCredentials, type HttpAnswer } from "./http-exchange.js";
import { faultKindOfRpcError } from "./json-rpc-faults.js";
import type { PoolEndpoint } from "./endpoint-pool.js";
import { parseRetryAfter } from "./retry-after.js";

export interface JsonRpcEndpointOptions {
  url: string;
  label: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

/** A JSON-RPC error object as the node sent it. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data: unknown;
}

export interface JsonRpcDialect {
  /** Error codes of this family that say "this node cannot answer now": another endpoint may. */
  endpointFaultCodes?: ReadonlySet<number>;
  /** The node's answer to `method` as the family's error. */
  nodeError: (method: string, error: JsonRpcErrorObject) => Error;
}

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class JsonRpcEndpoint implements PoolEndpoint {
  readonly label: string;
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch | undefined;
  readonly #dialect: JsonRpcDialect;
  #nextId = 1;

  constructor(options: JsonRpcEndpointOptions, dialect: JsonRpcDialect) {
    const { url, authorization } = splitCredentials(options.url);
    this.label = options.label;
    this.#url = url;
    this.#headers = { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
    this.#timeoutMs = options.timeoutMs;
    this.#fetch = options.fetchImpl;
    this.#dialect = dialect;
  }

  async request(method: string, params: unknown): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method, params: params ?? [] });
    const answer = await httpExchange(this.label, this.#url, {
      method: "POST",
      body,
      headers: this.#headers,
      timeoutMs: this.#timeoutMs,
      ...(this.#fetch === undefined ? {} : { fetchImpl: this.#fetch }),
    });
    const statusFault = faultOfStatus(this.label, answer, Date.now());
    if (statusFault !== null) throw statusFault;
    const reply = parseJson(answer.text);
    if (isRecord(reply) && isRecord(reply.error)) throw this.#errorOf(method, reply.error, answer);
    if (isRecord(reply) && "result" in reply && answer.status < 400) return reply.result;
    throw new EndpointFault(this.label, "unavailable", `not a JSON-RPC reply: ${answer.text.slice(0, 200)}`, {
      status: answer.status,
    });
  }

  #errorOf(method: string, error: Rec, answer: HttpAnswer): Error {
    const code = typeof error.code === "number" ? error.code : -1;
    const message = typeof error.message === "string" ? error.message : JSON.stringify(error);
    const kind: FaultKind | null =
      this.#dialect.endpointFaultCodes?.has(code) === true
        ? "unavailable"
        : faultKindOfRpcError(code, message, {
            hasData: error.data !== undefined,
            internalErrorIsFault: true,
          });
    if (kind !== null) {
      return new EndpointFault(this.label, kind, `${method}: ${message} (code ${code})`, {
        status: answer.status,
        retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), Date.now()),
      });
    }
    return this.#dialect.nodeError(method, { code, message, data: error.data });
  }
}
