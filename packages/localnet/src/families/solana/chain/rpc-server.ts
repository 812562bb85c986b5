/**
 * JSON-RPC for the local Solana chain: Solana's method table and error codes on the local chains' one
 * JSON-RPC HTTP server. No WebSocket (PubSub) endpoint.
 */
import type { Server } from "node:http";
import type { Logger } from "pino";
import { createJsonRpcHttpServer, type JsonRpcMethods } from "../../rpc/json-rpc-http.js";
import type { LocalSolanaChain } from "./chain.js";
import { SOLANA_RPC_CODE, SolanaRpcError } from "./errors.js";
import { encodeJson } from "./rpc-json.js";
import type { RpcMethod } from "./rpc-method.js";
import { ACCOUNT_METHODS } from "./rpc-methods-accounts.js";
import { CHAIN_METHODS } from "./rpc-methods-chain.js";
import { TX_METHODS } from "./rpc-methods-tx.js";
import { Params } from "./rpc-params.js";

const METHODS: Record<string, RpcMethod> = { ...CHAIN_METHODS, ...ACCOUNT_METHODS, ...TX_METHODS };

/** The method names the server answers, for documentation and tests. */
export const SOLANA_RPC_METHODS: readonly string[] = Object.keys(METHODS).sort();

function solanaMethods(chain: LocalSolanaChain): JsonRpcMethods {
  return {
    family: "Solana",
    has: (method) => Object.hasOwn(METHODS, method),
    run(method, params = []) {
      if (!Array.isArray(params)) {
        throw new SolanaRpcError(SOLANA_RPC_CODE.INVALID_PARAMS, "Invalid params: expected an array");
      }
      return METHODS[method]!(chain, new Params(params));
    },
    errorOf: (error) =>
      error instanceof SolanaRpcError ? { code: error.code, message: error.message, data: error.data } : null,
  };
}

export function createSolanaRpcServer(chain: LocalSolanaChain, log?: Logger): Server {
  return createJsonRpcHttpServer(solanaMethods(chain), {
    encode: encodeJson,
    allowHeaders: ["solana-client"],
    ...(log === undefined ? {} : { log }),
  });
}
