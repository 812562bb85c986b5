/**
 * One Solana JSON-RPC endpoint spoken to over HTTP. It tells the pool apart "the endpoint failed"
 * (`EndpointFault`: unreachable, timed out, rate-limited, unhealthy or behind, without the history asked
 * for) from the node's answer, which it throws as `SolanaRpcError` (code, message and data, e.g. a
 * preflight failure's logs). Errors name the endpoint by its redacted label and carry only the method,
 * never the parameters, which can hold a signed transaction.
 */
import { EndpointFault, type FaultKind } from "../rpc/errors.js";
import { faultOfStatus, httpExchange, splitCredentials, type HttpAnswer } from "../rpc/http-exchange.js";
import { faultKindOfRpcError } from "../rpc/json-rpc-faults.js";
import type { PoolEndpoint } from "../rpc/endpoint-pool.js";
import { parseRetryAfter } from "../rpc/retry-after.js";

/**
 * Solana's server error codes that say "this node cannot answer now": unhealthy or behind (-32005),
 * block or status not available yet (-32004, -32014), not at the minimum context slot asked for
 * (-32016), no transaction history kept (-32011). Another endpoint may answer.
 */
const ENDPOINT_FAULT_CODES = new Set([-32004, -32005, -32011, -32014, -32016]);

export class SolanaRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
    readonly data: unknown,
  ) {
    super(`${method}: ${nodeMessage} (code ${code})`);
    this.name = "SolanaRpcError";
  }
}

export interface SolanaRpcEndpointOptions {
  url: string;
  label: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
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

export class SolanaRpcEndpoint implements PoolEndpoint {
  readonly label: string;
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch | undefined;
  #nextId = 1;

  constructor(options: SolanaRpcEndpointOptions) {
    const { url, authorization } = splitCredentials(options.url);
    this.label = options.label;
    this.#url = url;
    this.#headers = { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
    this.#timeoutMs = options.timeoutMs;
    this.#fetch = options.fetchImpl;
  }

  async request(method: string, params: unknown[]): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method, params });
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
    const kind: FaultKind | null = ENDPOINT_FAULT_CODES.has(code)
      ? "unavailable"
      : faultKindOfRpcError(code, message, { hasData: error.data !== undefined, internalErrorIsFault: true });
    if (kind !== null) {
      return new EndpointFault(this.label, kind, `${method}: ${message} (code ${code})`, {
        status: answer.status,
        retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), Date.now()),
      });
    }
    return new SolanaRpcError(method, code, message, error.data);
  }
}
