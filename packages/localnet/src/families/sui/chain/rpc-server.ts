/** Sui JSON-RPC for the local chain on the local chains' one JSON-RPC HTTP server, answered at any path. */
import type { Server } from "node:http";
import type { Logger } from "pino";
import { createJsonRpcHttpServer, type JsonRpcMethods } from "../../rpc/json-rpc-http.js";
import type { LocalSuiChain } from "./chain.js";
import { SuiRpcError } from "./errors.js";
import type { RpcMethod } from "./rpc-method.js";
import { EVENT_METHODS } from "./rpc-methods-events.js";
import { OBJECT_METHODS } from "./rpc-methods-objects.js";
import { TX_METHODS } from "./rpc-methods-tx.js";
import { Params } from "./rpc-params.js";

const METHODS: Record<string, RpcMethod> = { ...OBJECT_METHODS, ...TX_METHODS, ...EVENT_METHODS };

/** The method names the server answers, for documentation and tests. */
export const SUI_RPC_METHODS: readonly string[] = Object.keys(METHODS).sort();

function suiMethods(chain: LocalSuiChain): JsonRpcMethods {
  return {
    family: "Sui",
    has: (method) => Object.hasOwn(METHODS, method),
    run: (method, params) => METHODS[method]!(chain, Params.of(params)),
    errorOf: (error) => (error instanceof SuiRpcError ? { code: error.code, message: error.message } : null),
  };
}

export function createSuiRpcServer(chain: LocalSuiChain, log?: Logger): Server {
  return createJsonRpcHttpServer(suiMethods(chain), {
    allowHeaders: [
      "client-sdk-type",
      "client-sdk-version",
      "client-target-api-version",
      "client-request-method",
    ],
    ...(log === undefined ? {} : { log }),
  });
}
