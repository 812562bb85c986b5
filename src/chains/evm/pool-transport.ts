/**
 * A viem transport over an `EndpointPool` of EVM JSON-RPC endpoints (viem's `custom` transport around
 * our own routing). Per request:
 *
 * - `eth_sendRawTransaction` is broadcast through every endpoint; "already known" from one counts as
 *   an answer the executor treats as sent.
 * - Fee and chain-identity reads may go to any endpoint; every other read must be current (see the
 *   pool). `eth_blockNumber` and latest-block answers tell the pool the endpoint's head (a block also
 *   its time).
 * - Filters live on the node that created them, so their follow-up calls go back to it.
 *
 * viem's own retries are off: the pool retries, on the right endpoint, after the right wait.
 */
import { BaseError, custom, hexToNumber, isHex, type Transport } from "viem";
import type { EndpointPool } from "../rpc/endpoint-pool.js";
import type { HeadReading } from "../rpc/head-age.js";
import { RpcUnavailableError } from "../rpc/errors.js";
import { isAlreadyKnown } from "./errors.js";
import type { EvmRpcEndpoint } from "./rpc-endpoint.js";

/** Reads whose answer does not depend on how far the node has synced. */
const ANY_ENDPOINT_METHODS = new Set([
  "eth_chainId",
  "net_version",
  "web3_clientVersion",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_blobBaseFee",
]);
const FILTER_CREATORS = new Set(["eth_newFilter", "eth_newBlockFilter", "eth_newPendingTransactionFilter"]);
const FILTER_USERS = new Set(["eth_getFilterChanges", "eth_getFilterLogs", "eth_uninstallFilter"]);
/** Filters remembered; the oldest is forgotten beyond this (an abandoned filter expires on its node too). */
const MAX_FILTERS = 1_000;

/** No endpoint answered: a viem error, so viem passes it through as it is. */
export class EvmRpcUnavailableError extends BaseError {
  constructor(cause: RpcUnavailableError) {
    super(`${cause.what} on ${cause.chain}: no RPC endpoint answered.`, {
      details: cause.message,
      cause,
      name: "EvmRpcUnavailableError",
    });
  }
}

/** A block's height and time from an `eth_getBlockByNumber` answer; null when it has neither. */
export function blockHead(result: unknown): HeadReading | null {
  if (typeof result !== "object" || result === null) return null;
  const { number, timestamp } = result as { number?: unknown; timestamp?: unknown };
  if (typeof number !== "string" || !isHex(number)) return null;
  const seconds = typeof timestamp === "string" && isHex(timestamp) ? hexToNumber(timestamp) : null;
  return { height: hexToNumber(number), timeMs: seconds === null ? null : seconds * 1000 };
}

function headOf(method: string, params: unknown, result: unknown): HeadReading | null {
  if (method === "eth_blockNumber" && typeof result === "string" && isHex(result))
    return { height: hexToNumber(result), timeMs: null };
  const latest = Array.isArray(params) && params[0] === "latest";
  return method === "eth_getBlockByNumber" && latest ? blockHead(result) : null;
}

function alreadyKnownAnswer(error: unknown): boolean {
  return error instanceof BaseError && isAlreadyKnown(error.details);
}

export class EvmPoolRouter {
  readonly #filters = new Map<string, EvmRpcEndpoint>();

  constructor(readonly pool: EndpointPool<EvmRpcEndpoint>) {}

  async request(method: string, params: unknown): Promise<unknown> {
    try {
      return await this.#route(method, params);
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new EvmRpcUnavailableError(error);
      throw error;
    }
  }

  #route(method: string, params: unknown): Promise<unknown> {
    const call = (e: EvmRpcEndpoint) => e.request(method, params);
    if (method === "eth_sendRawTransaction")
      return this.pool.broadcast(method, call, { preferAnswer: alreadyKnownAnswer });
    if (FILTER_USERS.has(method)) {
      const id = Array.isArray(params) ? params[0] : undefined;
      const owner = typeof id === "string" ? this.#filters.get(id) : undefined;
      if (method === "eth_uninstallFilter" && typeof id === "string") this.#filters.delete(id);
      if (owner !== undefined) return this.pool.attempt(owner, call);
    }
    return this.pool.read(
      method,
      async (endpoint) => {
        const result = await call(endpoint);
        const head = headOf(method, params, result);
        if (head !== null) this.pool.noteHead(endpoint, head.height, head.timeMs);
        if (FILTER_CREATORS.has(method) && typeof result === "string") this.#rememberFilter(result, endpoint);
        return result;
      },
      { current: !ANY_ENDPOINT_METHODS.has(method) },
    );
  }

  #rememberFilter(id: string, endpoint: EvmRpcEndpoint): void {
    this.#filters.set(id, endpoint);
    if (this.#filters.size > MAX_FILTERS) {
      const oldest = this.#filters.keys().next().value;
      if (oldest !== undefined) this.#filters.delete(oldest);
    }
  }
}

export function poolTransport(router: EvmPoolRouter): Transport {
  return custom(
    { request: ({ method, params }) => router.request(method, params) },
    { key: "endpoint-pool", name: "RPC endpoint pool", retryCount: 0 },
  );
}
