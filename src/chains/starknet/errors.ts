/**
 * What can go wrong speaking to a Starknet node or building a transaction, as errors that name what was
 * wrong. The node's error codes are the JSON-RPC spec's (v0.9, starknet-types-09 errors.d.ts).
 */
import { AlreadyOnChainError, RefusedForGoodError } from "../seam-errors.js";

/** The spec's error codes the solver meets, in words. */
export const STARKNET_ERROR_CODES: Record<number, string> = {
  20: "contract not found",
  24: "block not found",
  29: "transaction hash not found",
  31: "page size too big",
  33: "invalid continuation token",
  40: "contract error",
  41: "transaction execution error",
  52: "invalid transaction nonce",
  53: "insufficient resources for validate",
  54: "insufficient account balance",
  55: "account validation failed",
  59: "duplicate transaction",
  61: "unsupported transaction version",
};

/** A node's error answer. */
export class StarknetRpcError extends Error {
  readonly meaning: string;

  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
    readonly data: unknown,
  ) {
    const meaning = STARKNET_ERROR_CODES[code] ?? "error";
    super(`${method}: ${meaning}: ${nodeMessage} (code ${code})${revertText(data)}`);
    this.name = "StarknetRpcError";
    this.meaning = meaning;
  }
}

/** The revert or execution error a contract or transaction error carries, shortened. */
function revertText(data: unknown): string {
  if (data === undefined || data === null) return "";
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `: ${text.slice(0, 400)}`;
}

/** An action the executor will not build, and why. */
export class StarknetActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StarknetActionError";
  }
}

/** The fill is already on chain: the order is stored at its id with the solver as initiator. */
export class StarknetFillOnChainError extends AlreadyOnChainError {
  constructor(orderId: string, swapId: string) {
    super(`fill of order ${orderId}: the HTLC already holds ${swapId} initiated by the solver`);
    this.name = "StarknetFillOnChainError";
  }
}

/** A send the node refused in a way no resend of the same transaction can change. */
export class StarknetRefusedError extends RefusedForGoodError {
  constructor(chain: string, txHash: string, cause: StarknetRpcError) {
    super(`${chain} refused transaction ${txHash}: ${cause.message}`, { cause });
    this.name = "StarknetRefusedError";
  }
}

/**
 * Refusals a resend of the same bytes cannot change: a used nonce (52, once the account's nonce has
 * passed it), bounds that cannot pay validation, a bad signature, an unsupported version. A balance short
 * of the bounds (54) is not among them: a top-up makes the same bytes valid.
 */
export const REFUSED_FOR_GOOD_CODES = new Set([52, 53, 55, 61]);
