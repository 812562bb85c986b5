/**
 * JSON-RPC 2.0 over HTTP for the local chains whose nodes speak it (Solana, Starknet, Sui): single requests
 * and batches, the standard error codes, POST only, `GET /health`, and CORS so browser wallets and
 * explorers can talk to it. What a method means, and its family's own error codes, stay with the family.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { BodyTooLargeError, readCapped } from "htlc-solver/util/read-capped.js";

/** The error codes JSON-RPC 2.0 itself defines. */
export const JSON_RPC_CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

type Id = string | number | null;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

interface RpcReply {
  jsonrpc: "2.0";
  id: Id;
  result?: unknown;
  error?: RpcErrorBody;
}

/** A family's methods as the server calls them. */
export interface JsonRpcMethods {
  /** Chain name in logs (`Solana`, `Starknet`). */
  readonly family: string;
  has(method: string): boolean;
  /**
   * Answers one call, or a promise of the answer (a node that verifies or waits before it answers); throws
   * or rejects with the family's RPC error for an error answer.
   */
  run(method: string, params: unknown): unknown;
  /** The family's RPC error as an error answer; null for anything else (answered as an internal error). */
  errorOf(error: unknown): RpcErrorBody | null;
}

export interface JsonRpcHttpOptions {
  /** How answers are written (default JSON.stringify). */
  encode?: (value: unknown) => string;
  /** Extra request headers browsers may send (CORS), beyond `content-type`. */
  allowHeaders?: readonly string[];
  log?: Logger;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function failure(id: Id, error: RpcErrorBody): RpcReply {
  const { code, message, data } = error;
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

const INVALID_REQUEST = { code: JSON_RPC_CODE.INVALID_REQUEST, message: "Invalid request" };

/** Runs one request object. */
export async function handleJsonRpcRequest(
  methods: JsonRpcMethods,
  request: unknown,
  log?: Logger,
): Promise<RpcReply> {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return failure(null, INVALID_REQUEST);
  }
  const { id = null, method, params, jsonrpc } = request as Record<string, unknown>;
  const replyId = typeof id === "string" || typeof id === "number" ? id : null;
  if (jsonrpc !== "2.0" || typeof method !== "string") return failure(replyId, INVALID_REQUEST);
  if (!methods.has(method)) {
    return failure(replyId, { code: JSON_RPC_CODE.METHOD_NOT_FOUND, message: "Method not found" });
  }
  try {
    return { jsonrpc: "2.0", id: replyId, result: await methods.run(method, params) };
  } catch (error) {
    const known = methods.errorOf(error);
    if (known !== null) return failure(replyId, known);
    log?.error({ err: error, method }, `local ${methods.family} RPC method failed`);
    return failure(replyId, {
      code: JSON_RPC_CODE.INTERNAL_ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

export function createJsonRpcHttpServer(methods: JsonRpcMethods, options: JsonRpcHttpOptions = {}): Server {
  const encode = options.encode ?? ((value: unknown) => JSON.stringify(value));
  const allowHeaders = ["content-type", ...(options.allowHeaders ?? [])].join(", ");
  const { log } = options;

  function send(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, {
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "access-control-allow-headers": allowHeaders,
    });
    res.end(body);
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "OPTIONS") return send(res, 204, "");
    if (req.method === "GET" && req.url === "/health") return send(res, 200, "ok");
    if (req.method !== "POST") {
      return send(res, 405, encode(failure(null, { ...INVALID_REQUEST, message: "POST only" })));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readCapped(req, MAX_BODY_BYTES));
    } catch (error) {
      if (error instanceof BodyTooLargeError) req.destroy();
      return send(
        res,
        200,
        encode(failure(null, { code: JSON_RPC_CODE.PARSE_ERROR, message: "Parse error" })),
      );
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return send(res, 200, encode(failure(null, INVALID_REQUEST)));
      const replies = await Promise.all(parsed.map((r) => handleJsonRpcRequest(methods, r, log)));
      return send(res, 200, encode(replies));
    }
    return send(res, 200, encode(await handleJsonRpcRequest(methods, parsed, log)));
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      log?.error({ err: error }, `local ${methods.family} RPC request failed`);
      if (!res.headersSent) {
        send(
          res,
          500,
          encode(failure(null, { code: JSON_RPC_CODE.INTERNAL_ERROR, message: "Internal error" })),
        );
      }
    });
  });
  // Idle keep-alive sockets are closed by the client, never by the server: tests run the chain and its
  // clients in one process, and after the chain has held the event loop (hundreds of blocks mined at
  // once) both idle timers fire together, so a client could send on a socket the server is closing.
  server.keepAliveTimeout = 0;
  return server;
}
