/** The Starknet JSON-RPC error codes (spec v0.9) the local chain answers with, and the error carrying them. */

export const STARKNET_RPC_CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  CONTRACT_NOT_FOUND: 20,
  ENTRYPOINT_NOT_FOUND: 21,
  BLOCK_NOT_FOUND: 24,
  TXN_HASH_NOT_FOUND: 29,
  PAGE_SIZE_TOO_BIG: 31,
  INVALID_CONTINUATION_TOKEN: 33,
  CONTRACT_ERROR: 40,
  TRANSACTION_EXECUTION_ERROR: 41,
  INVALID_TRANSACTION_NONCE: 52,
  INSUFFICIENT_RESOURCES_FOR_VALIDATE: 53,
  INSUFFICIENT_ACCOUNT_BALANCE: 54,
  VALIDATION_FAILURE: 55,
  DUPLICATE_TX: 59,
  UNSUPPORTED_TX_VERSION: 61,
} as const;

/** The spec's message for each of its codes. */
const MESSAGES: Record<number, string> = {
  20: "Contract not found",
  21: "Requested entrypoint does not exist in the contract",
  24: "Block not found",
  29: "Transaction hash not found",
  31: "Requested page size is too big",
  33: "The supplied continuation token is invalid or unknown",
  40: "Contract error",
  41: "Transaction execution error",
  52: "Invalid transaction nonce",
  53: "The transaction's resources don't cover validation or the minimal transaction fee",
  54: "Account balance is smaller than the transaction's maximal fee (calculated as the sum of each resource's limit x max price)",
  55: "Account validation failed",
  59: "A transaction with the same hash already exists in the mempool",
  61: "The transaction version is not supported",
};

export class StarknetRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "StarknetRpcError";
  }
}

/** An error with the spec's code and message; `data` says what exactly was wrong. */
export function specError(code: number, data?: unknown): StarknetRpcError {
  return new StarknetRpcError(code, MESSAGES[code] ?? "Unknown error", data);
}

export function invalidParams(detail: string): StarknetRpcError {
  return new StarknetRpcError(STARKNET_RPC_CODE.INVALID_PARAMS, "Invalid params", detail);
}
