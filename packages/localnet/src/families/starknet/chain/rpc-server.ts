/**
 * JSON-RPC 2.0 over HTTP for the local Starknet chain (spec v0.9 method names and error codes): single
 * requests and batches, POST only, answered at any path (live providers serve `/rpc/v0_9` and the like).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { LocalStarknetChain } from "./chain.js";
import { STARKNET_RPC_CODE, StarknetRpcError } from "./errors.js";
import type { RpcMethod } from "./rpc-method.js";
import { CHAIN_METHODS } from "./rpc-methods-chain.js";
import { TX_METHODS } from "./rpc-methods-tx.js";
import { Params } from "./rpc-params.js";
import { BodyTooLargeError, readCapped } from "htlc-solver/util/read-capped.js";

const METHODS: Record<string, RpcMethod> = { ...CHAIN_METHODS, ...TX_METHODS };
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The method names the server answers, for documentation and tests. */
export const STARKNET_RPC_METHODS: readonly string[] = Object.keys(METHODS).sort();

type Id = string | number | null;

interface RpcReply {
  jsonrpc: "2.0";
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function failure(id: Id, code: number, message: string, data?: unknown): RpcReply {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

export function handleRpcRequest(chain: LocalStarknetChain, request: unknown, log?: Logger): RpcReply {
  if (typeof request !== "object" || request === null || Array.isArray(request))
    return failure(null, STARKNET_RPC_CODE.INVALID_REQUEST, "Invalid request");
  const { id = null, method, params, jsonrpc } = request as Record<string, unknown>;
  const replyId = typeof id === "string" || typeof id === "number" ? id : null;
  if (jsonrpc !== "2.0" || typeof method !== "string")
    return failure(replyId, STARKNET_RPC_CODE.INVALID_REQUEST, "Invalid request");
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (handler === undefined) return failure(replyId, STARKNET_RPC_CODE.METHOD_NOT_FOUND, "Method not found");
  try {
    return { jsonrpc: "2.0", id: replyId, result: handler(chain, Params.of(params)) };
  } catch (error) {
    if (error instanceof StarknetRpcError) return failure(replyId, error.code, error.message, error.data);
    log?.error({ err: error, method }, "local Starknet RPC method failed");
    return failure(
      replyId,
      STARKNET_RPC_CODE.INTERNAL_ERROR,
      error instanceof Error ? error.message : String(error),
    );
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "content-type",
  });
  res.end(body);
}

async function serve(chain: LocalStarknetChain, req: IncomingMessage, res: ServerResponse, log?: Logger) {
  if (req.method === "OPTIONS") return send(res, 204, "");
  if (req.method === "GET" && req.url === "/health") return send(res, 200, "ok");
  if (req.method !== "POST")
    return send(res, 405, JSON.stringify(failure(null, STARKNET_RPC_CODE.INVALID_REQUEST, "POST only")));
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readCapped(req, MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLargeError) req.destroy();
    return send(res, 200, JSON.stringify(failure(null, STARKNET_RPC_CODE.PARSE_ERROR, "Parse error")));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return send(
        res,
        200,
        JSON.stringify(failure(null, STARKNET_RPC_CODE.INVALID_REQUEST, "Invalid request")),
      );
    return send(res, 200, JSON.stringify(parsed.map((r) => handleRpcRequest(chain, r, log))));
  }
  return send(res, 200, JSON.stringify(handleRpcRequest(chain, parsed, log)));
}

export function createStarknetRpcServer(chain: LocalStarknetChain, log?: Logger): Server {
  return createServer((req, res) => {
    serve(chain, req, res, log).catch((error: unknown) => {
      log?.error({ err: error }, "local Starknet RPC request failed");
      if (!res.headersSent)
        send(res, 500, JSON.stringify(failure(null, STARKNET_RPC_CODE.INTERNAL_ERROR, "Internal error")));
    });
  });
}
