/**
 * The JSON-RPC errors a Sui full node answers with: -32002 for a transaction refused at submission
 * (nothing executes, nothing is charged), -32602 for bad params (malformed BCS among them), -32603 inside.
 */
export const SUI_RPC_CODE = {
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TRANSACTION_REJECTED: -32002,
} as const;

export class SuiRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "SuiRpcError";
  }
}

export function invalidParams(detail: string): SuiRpcError {
  return new SuiRpcError(SUI_RPC_CODE.INVALID_PARAMS, `Invalid params: ${detail}`);
}

/** A transaction the node refuses before execution; the message names the cause. */
export function rejected(message: string): SuiRpcError {
  return new SuiRpcError(SUI_RPC_CODE.TRANSACTION_REJECTED, message);
}
