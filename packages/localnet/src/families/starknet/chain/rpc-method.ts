import type { LocalStarknetChain } from "./chain.js";
import type { Params } from "./rpc-params.js";

/** One JSON-RPC method: reads its params, answers with a JSON value. */
export type RpcMethod = (chain: LocalStarknetChain, params: Params) => unknown;
