import { BaseError, decodeErrorResult, isHex, type Abi, type Hex } from "viem";
import type { ActionKind } from "../chain.js";
import { AlreadyOnChainError } from "../seam-errors.js";

/** Simulation says the transaction would revert; nothing was signed or sent. */
export class TxWouldRevertError extends Error {
  constructor(
    readonly action: ActionKind | "approve" | "withdraw",
    /** Name of the decoded custom error (or `Error` / `Panic`), null when the ABI does not know it. */
    readonly errorName: string | null,
    readonly reason: string,
    readonly revertData: Hex | null,
  ) {
    super(`${action} would revert: ${reason}`);
    this.name = "TxWouldRevertError";
  }
}

/**
 * An RPC call failed for a reason other than a revert. Carries only the node's words: viem's own
 * message repeats the request, whose calldata may hold a secret.
 */
export class EvmRpcError extends Error {
  constructor(chain: string, what: string, nodeSays: string) {
    super(`${what} on ${chain} failed: ${nodeSays}`);
    this.name = "EvmRpcError";
  }
}

export class InsufficientAllowanceError extends Error {
  constructor(asset: string, allowance: bigint, needed: bigint) {
    super(
      `allowance of the HTLC for ${asset} is ${allowance}, below the ${needed} this fill needs; ` +
        `the solver grants it when it starts (EvmExecutor.prepare): restart it once the approve can be mined`,
    );
    this.name = "InsufficientAllowanceError";
  }
}

export class OrderAlreadyInitiatedError extends AlreadyOnChainError {
  constructor(swapId: string, asset: string) {
    super(`order ${swapId} of ${asset} is already initiated on chain; refusing to fill it again`);
    this.name = "OrderAlreadyInitiatedError";
  }
}

/** Revert data carried somewhere in a viem error chain (same place viem itself looks). */
export function revertDataOf(error: unknown): Hex | null {
  if (!(error instanceof BaseError)) return null;
  let found: Hex | null = null;
  error.walk((e) => {
    const data = (e as { data?: unknown }).data;
    const candidate = typeof data === "object" && data !== null ? (data as { data?: unknown }).data : data;
    if (typeof candidate === "string" && isHex(candidate) && candidate.length >= 10) found = candidate;
    return found !== null;
  });
  return found;
}

export interface DecodedRevert {
  errorName: string | null;
  reason: string;
  data: Hex | null;
}

/** Names the revert of a failed call: a custom error of `abi`, `Error(string)`, a panic, or the raw message. */
export function decodeRevert(error: unknown, abi: Abi): DecodedRevert {
  const data = revertDataOf(error);
  if (data === null) return { errorName: null, reason: nodeMessage(error), data: null };
  return decodeRevertData(data, abi);
}

/** Names revert data (what a call that failed inside a batch returned); empty data is a bare revert. */
export function decodeRevertData(data: Hex, abi: Abi): DecodedRevert {
  if (data === "0x" || data.length < 10)
    return { errorName: null, reason: "reverted without a reason", data };
  try {
    const decoded = decodeErrorResult({ abi, data });
    if (decoded.errorName === "Error") return { errorName: "Error", reason: String(decoded.args?.[0]), data };
    const args = (decoded.args ?? []).map((a) => String(a)).join(", ");
    return { errorName: decoded.errorName, reason: `${decoded.errorName}(${args})`, data };
  } catch {
    return { errorName: null, reason: `unknown custom error ${data.slice(0, 10)}`, data };
  }
}

/** The node's own words, without viem's request dump (which can hold the signed transaction). */
export function nodeMessage(error: unknown): string {
  if (!(error instanceof BaseError)) return error instanceof Error ? error.message : String(error);
  let details = error.details;
  error.walk((e) => {
    if (e instanceof BaseError && e.details !== "") details = e.details;
    return false;
  });
  return details !== "" ? details : error.shortMessage;
}

/** The node already holds this exact transaction in its pool. */
export function isAlreadyKnown(message: string): boolean {
  return /already known|already imported|known transaction|already exists/i.test(message);
}

export function isNonceTooLow(message: string): boolean {
  return /nonce too low|nonce has already been used|invalid nonce/i.test(message);
}
