import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { parseRpcJson } from "htlc-solver/chains/bitcoin/rpc.js";
import { RPC_CODE, RpcMethodError } from "./errors.js";
import type { BitcoinRegtestNode } from "./node.js";
import { encodeJson, type JsonValue } from "./rpc-json.js";
import type { RpcMethod } from "./rpc-method.js";
import { CHAIN_METHODS } from "./rpc-methods-chain.js";
import { TX_METHODS } from "./rpc-methods-tx.js";
import { RpcParams } from "./rpc-params.js";
import { readCapped } from "htlc-solver/util/read-capped.js";

const METHODS: Record<string, RpcMethod> = { ...CHAIN_METHODS, ...TX_METHODS };
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface RpcCredentials {
  user: string;
  password: string;
}

export function generateCredentials(): RpcCredentials {
  return { user: "regtest", password: randomBytes(16).toString("hex") };
}

interface Reply {
  status: number;
  body: { result: JsonValue; error: { code: number; message: string } | null; id: JsonValue };
}

function errorStatus(code: number): number {
  if (code === RPC_CODE.METHOD_NOT_FOUND) return 404;
  if (code === RPC_CODE.INVALID_REQUEST || code === RPC_CODE.PARSE_ERROR) return 400;
  return 500;
}

function failure(code: number, message: string, id: JsonValue): Reply {
  return { status: errorStatus(code), body: { result: null, error: { code, message }, id } };
}

/** Runs one JSON-RPC request object against the node, as bitcoind's JSON-RPC 1.0 handler would. */
export function handleRequest(node: BitcoinRegtestNode, request: unknown, log?: Logger): Reply {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return failure(RPC_CODE.INVALID_REQUEST, "Invalid Request object", null);
  }
  const {
    id = null,
    method,
    params = [],
  } = request as { id?: JsonValue; method?: unknown; params?: unknown };
  if (typeof method !== "string") return failure(RPC_CODE.INVALID_REQUEST, "Method must be a string", id);
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (handler === undefined) return failure(RPC_CODE.METHOD_NOT_FOUND, "Method not found", id);
  if (typeof params !== "object" || params === null) {
    return failure(RPC_CODE.INVALID_REQUEST, "Params must be an array or object", id);
  }
  try {
    const result = handler.run(
      node,
      new RpcParams(method, handler.params, params as unknown[] | Record<string, unknown>),
    );
    return { status: 200, body: { result, error: null, id } };
  } catch (error) {
    if (error instanceof RpcMethodError) return failure(error.code, error.message, id);
    log?.error({ err: error, method }, "local bitcoin regtest RPC method failed");
    return failure(RPC_CODE.MISC_ERROR, error instanceof Error ? error.message : String(error), id);
  }
}

function authorized(req: IncomingMessage, credentials: RpcCredentials): boolean {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString("base64")}`,
  );
  const given = Buffer.from(req.headers.authorization ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text + "\n");
}

async function serve(
  node: BitcoinRegtestNode,
  credentials: RpcCredentials,
  req: IncomingMessage,
  res: ServerResponse,
  log?: Logger,
): Promise<void> {
  if (!authorized(req, credentials)) {
    res.writeHead(401, { "www-authenticate": 'Basic realm="jsonrpc"' });
    res.end();
    return;
  }
  if (req.method !== "POST") {
    res.writeHead(405);
    res.end("JSONRPC server handles only POST requests");
    return;
  }
  let request: unknown;
  try {
    request = parseRpcJson(await readCapped(req, MAX_BODY_BYTES));
  } catch {
    const reply = failure(RPC_CODE.PARSE_ERROR, "Parse error", null);
    send(res, reply.status, encodeJson(reply.body));
    return;
  }
  if (Array.isArray(request)) {
    send(res, 200, encodeJson(request.map((r) => handleRequest(node, r, log).body)));
    return;
  }
  const reply = handleRequest(node, request, log);
  send(res, reply.status, encodeJson(reply.body));
}

/** HTTP server speaking bitcoind's JSON-RPC for `node`, on 127.0.0.1 only. */
export function createRpcServer(node: BitcoinRegtestNode, credentials: RpcCredentials, log?: Logger): Server {
  return createServer((req, res) => {
    serve(node, credentials, req, res, log).catch((error: unknown) => {
      log?.error({ err: error }, "local bitcoin regtest RPC request failed");
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}
