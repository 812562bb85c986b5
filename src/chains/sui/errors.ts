/**
 * What can go wrong speaking to a Sui node or building a transaction, as errors that name what was wrong,
 * and the module's abort codes in words (docs/protocol.md, Sui).
 */
import { AlreadyOnChainError, RefusedForGoodError } from "../seam-errors.js";

/** `AtomicSwap`'s abort codes (code-423n4/2025-11-garden 933f545, sui/sources/main.move). */
export const ATOMIC_SWAP_ABORTS: Record<number, string> = {
  1: "coin value differs from the amount",
  2: "order not expired yet",
  3: "initiator is the zero address",
  4: "redeemer is the zero address",
  5: "no such order",
  7: "order id already used",
  8: "secret does not match the order",
  9: "timelock out of range",
  10: "zero amount",
  11: "initiator is the redeemer",
  13: "secret hash is not 32 bytes",
  14: "order already fulfilled",
  15: "funder is the redeemer",
  16: "sender is not the redeemer",
};

const MOVE_ABORT = /MoveAbort\(.*Identifier\("([A-Za-z_][A-Za-z0-9_]*)"\).*,\s*(\d+)\) in command (\d+)/s;

/** An effects or dry-run error in words: a Move abort of AtomicSwap by its code's meaning, else as the node said. */
export function describeSuiFailure(error: string): string {
  const abort = MOVE_ABORT.exec(error);
  if (abort === null) return error.slice(0, 300);
  const [, module, code, command] = abort;
  const meaning = module === "AtomicSwap" ? ATOMIC_SWAP_ABORTS[Number(code)] : undefined;
  return `${module} aborted with code ${code}${meaning === undefined ? "" : ` (${meaning})`} in command ${command}`;
}

/** A node's error answer. */
export class SuiRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
  ) {
    super(`${method}: ${nodeMessage.slice(0, 400)} (code ${code})`);
    this.name = "SuiRpcError";
  }
}

/** An action the executor will not build, and why. */
export class SuiActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiActionError";
  }
}

/** The fill is already on chain: the registry holds the order with the solver as initiator. */
export class SuiFillOnChainError extends AlreadyOnChainError {
  constructor(orderId: string, swapId: string) {
    super(`fill of order ${orderId}: the registry already holds ${swapId} initiated by the solver`);
    this.name = "SuiFillOnChainError";
  }
}

/** A submission the node refused in a way no resend of the same bytes can change. */
export class SuiRefusedError extends RefusedForGoodError {
  constructor(chain: string, digest: string, cause: SuiRpcError) {
    super(`${chain} refused transaction ${digest}: ${cause.message}`, { cause });
    this.name = "SuiRefusedError";
  }
}

/**
 * Refusals at submission (code -32002) the same bytes can never pass: an input's version moved on, an
 * object locked by another transaction, deleted or not the sender's, a bad signature. A gas balance short
 * of the budget is not among them: a top-up makes the same bytes valid.
 */
const FOR_GOOD = [
  /is not available for consumption/i,
  /is locked by transaction/i,
  /invalid user signature/i,
  /deleted/i,
  /not owned by/i,
  /does not exist/i,
];

export function refusedForGood(error: SuiRpcError): boolean {
  return (
    (error.code === -32002 || error.code === -32602) && FOR_GOOD.some((re) => re.test(error.nodeMessage))
  );
}
