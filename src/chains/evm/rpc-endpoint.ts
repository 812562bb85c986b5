/**
 * One EVM JSON-RPC endpoint spoken to over HTTP. It tells the pool apart "the endpoint failed"
 * (`EndpointFault`: unreachable, timed out, rate-limited, a node without the block) from the node's
 * answer, which it throws as viem's `RpcRequestError` (code, message and revert data intact, so viem
 * decodes reverts as usual). Errors name the endpoint by its redacted label and carry only the method,
 * never the parameters, which can hold a signed transaction or a secret in calldata.
 */
import { RpcRequestError } from "viem";
import { JsonRpcEndpoint, type JsonRpcEndpointOptions } from "../rpc/json-rpc-endpoint.js";

export type EvmRpcEndpointOptions = JsonRpcEndpointOptions;

export class EvmRpcEndpoint extends JsonRpcEndpoint {
  constructor(options: EvmRpcEndpointOptions) {
    super(options, {
      nodeError: (method, { code, message, data }) =>
        new RpcRequestError({
          body: { method },
          error: { code, message, ...(data === undefined ? {} : { data }) },
          url: options.label,
        }),
    });
  }
}
