/**
 * One Solana JSON-RPC endpoint spoken to over HTTP. It tells the pool apart "the endpoint failed"
 * (`EndpointFault`: unreachable, timed out, rate-limited, unhealthy or behind, without the history asked
 * for) from the node's answer, which it throws as `SolanaRpcError` (code, message and data, e.g. a
 * preflight failure's logs). Errors name the endpoint by its redacted label and carry only the method,
 * never the parameters, which can hold a signed transaction.
 */
import { JsonRpcEndpoint, type JsonRpcEndpointOptions } from "../rpc/json-rpc-endpoint.js";

/**
 * Solana's server error codes that say "this node cannot answer now": unhealthy or behind (-32005),
 * block or status not available yet (-32004, -32014), not at the minimum context slot asked for
 * (-32016), no transaction history kept (-32011). Another endpoint may answer.
 */
const ENDPOINT_FAULT_CODES = new Set([-32004, -32005, -32011, -32014, -32016]);

export class SolanaRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
    readonly data: unknown,
  ) {
    super(`${method}: ${nodeMessage} (code ${code})`);
    this.name = "SolanaRpcError";
  }
}

export type SolanaRpcEndpointOptions = JsonRpcEndpointOptions;

export class SolanaRpcEndpoint extends JsonRpcEndpoint {
  constructor(options: SolanaRpcEndpointOptions) {
    super(options, {
      endpointFaultCodes: ENDPOINT_FAULT_CODES,
      nodeError: (method, { code, message, data }) => new SolanaRpcError(method, code, message, data),
    });
  }
}
