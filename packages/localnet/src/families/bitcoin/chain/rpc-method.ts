import type { BitcoinRegtestNode } from "./node.js";
import type { JsonValue } from "./rpc-json.js";
import type { RpcParams } from "./rpc-params.js";

/** One RPC method: bitcoind's parameter names (for named calls) and the handler. */
export interface RpcMethod {
  params: readonly string[];
  run(node: BitcoinRegtestNode, params: RpcParams): JsonValue;
}
