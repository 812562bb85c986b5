/** Errors of the local Solana chain, carrying the JSON-RPC code and data a real cluster would answer with. */
import type { RpcTransactionError } from "./tx-error.js";

export const SOLANA_RPC_CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** sendTransaction's preflight simulation failed. */
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  SIGNATURE_VERIFICATION_FAILURE: -32003,
  /** getBlockTime of a slot whose block the node does not have. */
  BLOCK_NOT_AVAILABLE: -32004,
  TRANSACTION_VERSION_NOT_SUPPORTED: -32015,
} as const;

export class SolanaRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "SolanaRpcError";
  }
}

/** A transaction refused before it could land: preflight failure, expired blockhash, bad signature, … */
export class TransactionRejectedError extends Error {
  constructor(
    readonly err: RpcTransactionError,
    readonly logs: string[],
    readonly unitsConsumed: bigint,
  ) {
    super(`transaction rejected: ${JSON.stringify(err)}`);
    this.name = "TransactionRejectedError";
  }
}

export function invalidParams(message: string): SolanaRpcError {
  return new SolanaRpcError(SOLANA_RPC_CODE.INVALID_PARAMS, `Invalid params: ${message}`);
}

/** One parameter a real node could not parse: its message is "Invalid param: <the parse error>". */
export function invalidParam(detail: string): SolanaRpcError {
  return new SolanaRpcError(SOLANA_RPC_CODE.INVALID_PARAMS, `Invalid param: ${detail}`);
}
