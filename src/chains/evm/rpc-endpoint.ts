/**
 * One EVM JSON-RPC endpoint spoken to over HTTP. It tells the pool apart "the endpoint failed"
 * (`EndpointFault`: unreachable, timed out, rate-limited, a node without the block) from the node's
 * answer, which it throws as viem's `RpcRequestError` (code, message and revert data intact, so viem
 * decodes reverts as usual). Errors name the endpoint by its redacted label and carry only the method,
 * never the parameters, which can hold a signed transaction or a secret in calldata.
 */
import { RpcRequestError } from "viem";
import { EndpointFault } from "../rpc/errors.js";
import { faultOfStatus, httpExchange, splitCredentials, type HttpAnswer } from "../rpc/http-exchange.js";
import { faultKindOfRpcError } from "../rpc/json-rpc-faults.js";
import { parseRetryAfter } from "../rpc/retry-after.js";
import type { PoolEndpoint } from "../rpc/endpoint-pool.js";

export interface EvmRpcEndpointOptions {
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

export class EvmRpcEndpoint implements PoolEndpoint {
  readonly label: string;
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch | undefined;
  #nextId = 1;

  constructor(options: EvmRpcEndpointOptions) {
    const { url, authorization } = splitCredentials(options.url);
    this.label = options.label;
    this.#url = url;
    this.#headers = { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
    this.#timeoutMs = options.timeoutMs;
    this.#fetch = options.fetchImpl;
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
    const kind = faultKindOfRpcError(code, message, {
      hasData: error.data !== undefined,
      internalErrorIsFault: true,
    });
    if (kind !== null) {
      const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"), Date.now());
      return new EndpointFault(this.label, kind, `${method}: ${message} (code ${code})`, {
        status: answer.status,
        retryAfterMs,
      });
    }
    return new RpcRequestError({
      body: { method },
      error: { code, message, ...(error.data === undefined ? {} : { data: error.data }) },
      url: this.label,
    });
  }
}
