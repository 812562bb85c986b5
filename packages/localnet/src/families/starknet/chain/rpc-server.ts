/**
 * JSON-RPC for the local Starknet chain (spec v0.9 method names and error codes) on the local chains' one
 * JSON-RPC HTTP server, answered at any path (live providers serve `/rpc/v0_9` and the like).
 */
import type { Server } from "node:http";
import type { Logger } from "pino";
import { createJsonRpcHttpServer, type JsonRpcMethods } from "../../rpc/json-rpc-http.js";
import type { LocalStarknetChain } from "./chain.js";
import { StarknetRpcError } from "./errors.js";
import type { RpcMethod } from "./rpc-method.js";
import { CHAIN_METHODS } from "./rpc-methods-chain.js";
import { TX_METHODS } from "./rpc-methods-tx.js";
import { Params } from "./rpc-params.js";

const METHODS: Record<string, RpcMethod> = { ...CHAIN_METHODS, ...TX_METHODS };

/** The method names the server answers, for documentation and tests. */
export const STARKNET_RPC_METHODS: readonly string[] = Object.keys(METHODS).sort();

function starknetMethods(chain: LocalStarknetChain): JsonRpcMethods {
  return {
    family: "Starknet",
    has: (method) => Object.hasOwn(METHODS, method),
    run: (method, params) => METHODS[method]!(chain, Params.of(params)),
    errorOf: (error) =>
      error instanceof StarknetRpcError
        ? { code: error.code, message: error.message, data: error.data }
        : null,
  };
}

export function createStarknetRpcServer(chain: LocalStarknetChain, log?: Logger): Server {
  return createJsonRpcHttpServer(starknetMethods(chain), log === undefined ? {} : { log });
}
