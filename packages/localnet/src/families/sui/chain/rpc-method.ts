import type { LocalSuiChain } from "./chain.js";
import type { Params } from "./rpc-params.js";

/** One JSON-RPC method: reads its params, answers with a JSON value (or a promise of one). */
export type RpcMethod = (chain: LocalSuiChain, params: Params) => unknown;
