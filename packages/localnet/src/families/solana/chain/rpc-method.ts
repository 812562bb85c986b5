import type { LocalSolanaChain } from "./chain.js";
import type { Params } from "./rpc-params.js";

/** One JSON-RPC method: reads its params, answers with a JSON-able value (bigints become JSON numbers). */
export type RpcMethod = (chain: LocalSolanaChain, params: Params) => unknown;
