/**
 * One bitcoind JSON-RPC endpoint (1.0 style) spoken to over HTTP. bitcoind answers an RPC error with
 * HTTP 500 (404 for an unknown method) and a JSON body, so the body decides: a JSON-RPC error is the
 * node's answer (`BitcoinRpcError`, even "internal error", which bitcoind uses for real answers),
 * unless it says the node is warming up or a provider is limiting us; no reply at all, or a reply that is not JSON-RPC, is an `EndpointFault` for the pool.
 */
import { EndpointFault } from "../rpc/errors.js";
import { faultOfStatus, httpExchange, splitCredentials, type HttpAnswer } from "../rpc/http-exchange.js";
import { faultKindOfRpcError } from "../rpc/json-rpc-faults.js";
import type { PoolEndpoint } from "../rpc/endpoint-pool.js";
import { parseRetryAfter } from "../rpc/retry-after.js";
import { BitcoinRpcError, parseRpcJson, RpcErrorCode } from "./rpc-wire.js";

/** bitcoind's "still loading the block index" error: the node will answer, later. */
const RPC_IN_WARMUP = -28;

export interface BitcoinRpcEndpointOptions {
  url: string;
  label: string;
  /** Used when the URL carries no credentials of its own. */
  user?: string;
  password?: string;
  timeoutMs: number;
}

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class BitcoinRpcEndpoint implements PoolEndpoint {
  readonly label: string;
  /** The URL without its credentials. */
  readonly url: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  #nextId = 1;

  constructor(options: BitcoinRpcEndpointOptions) {
    const { url, authorization } = splitCredentials(options.url, options);
    this.label = options.label;
    this.url = url;
    this.#headers = { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
    this.#timeoutMs = options.timeoutMs;
  }

  async call(method: string, params: unknown[]): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: "1.0", id: this.#nextId++, method, params });
    const answer = await httpExchange(this.label, this.url, {
      method: "POST",
      body,
      headers: this.#headers,
      timeoutMs: this.#timeoutMs,
    });
    const statusFault = faultOfStatus(this.label, answer, Date.now());
    if (statusFault !== null) throw statusFault;
    const reply = this.#parse(method, answer);
    const error = reply.error;
    if (error === null || error === undefined) return reply.result;
    const code = isRecord(error) && typeof error.code === "number" ? error.code : RpcErrorCode.MISC_ERROR;
    const message = isRecord(error) && typeof error.message === "string" ? error.message : String(error);
    const kind =
      code === RPC_IN_WARMUP
        ? "unavailable"
        : faultKindOfRpcError(code, message, { hasData: false, internalErrorIsFault: false });
    if (kind === null) throw new BitcoinRpcError(method, code, message);
    throw new EndpointFault(this.label, kind, `${method}: ${message} (code ${code})`, {
      status: answer.status,
      retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), Date.now()),
    });
  }

  #parse(method: string, answer: HttpAnswer): Rec {
    let reply: unknown;
    try {
      reply = answer.text === "" ? undefined : parseRpcJson(answer.text);
    } catch {
      reply = undefined;
    }
    if (isRecord(reply) && ("result" in reply || "error" in reply)) return reply;
    const what = answer.text === "" ? "an empty reply" : `not a JSON-RPC reply: ${answer.text.slice(0, 200)}`;
    throw new EndpointFault(this.label, "unavailable", `${method}: ${what}`, { status: answer.status });
  }
}
