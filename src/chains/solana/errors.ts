/** Errors of the Solana client code, and the HTLC programs' error numbers with their names. */
import { AlreadyOnChainError } from "../seam-errors.js";
import type { SolanaProgramVersion } from "./program-version.js";

export class SolanaDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SolanaDecodeError";
  }
}

/**
 * Custom error numbers of the HTLC programs (Anchor numbering). 6000+ are the programs' own; the same
 * name has a different number in the native and the SPL program, as in the live IDLs. Numbers past the
 * live programs' last error are this project's additions (docs/solana-programs.md).
 */
export const NATIVE_HTLC_ERRORS: Readonly<Record<number, string>> = {
  6000: "InvalidRefundee",
  6001: "InvalidRedeemer",
  6002: "InvalidSecret",
  6003: "InvalidRentSponsor",
  6004: "RefundBeforeExpiry",
  6005: "ZeroSwapAmount",
  6006: "ExpiryOverflow",
};

export const SPL_HTLC_ERRORS: Readonly<Record<number, string>> = {
  6000: "InvalidRedeemer",
  6001: "InvalidSecret",
  6002: "InvalidRentSponsor",
  6003: "RefundBeforeExpiry",
  6004: "ZeroSwapAmount",
  6005: "ExpiryOverflow",
};

/**
 * The legacy programs' errors (IDLs v0.3.0 and v0.4.0), with the same two project additions after them
 * (docs/solana-programs.md).
 */
export const LEGACY_NATIVE_HTLC_ERRORS: Readonly<Record<number, string>> = {
  6000: "InvalidInitiator",
  6001: "InvalidRedeemer",
  6002: "InvalidSecret",
  6003: "RefundBeforeExpiry",
  6004: "ZeroSwapAmount",
  6005: "ExpiryOverflow",
};

export const LEGACY_SPL_HTLC_ERRORS: Readonly<Record<number, string>> = {
  6000: "InvalidRedeemer",
  6001: "InvalidSecret",
  6002: "InvalidSponsor",
  6003: "RefundBeforeExpiry",
  6004: "ZeroSwapAmount",
  6005: "ExpiryOverflow",
};

const PROGRAM_ERRORS: Readonly<
  Record<SolanaProgramVersion, Record<HtlcProgramKind, Readonly<Record<number, string>>>>
> = {
  current: { native: NATIVE_HTLC_ERRORS, spl: SPL_HTLC_ERRORS },
  legacy: { native: LEGACY_NATIVE_HTLC_ERRORS, spl: LEGACY_SPL_HTLC_ERRORS },
};

/** Anchor framework errors both programs return for account and instruction checks. */
export const ANCHOR_FRAMEWORK_ERRORS: Readonly<Record<number, string>> = {
  100: "InstructionMissing",
  101: "InstructionFallbackNotFound",
  102: "InstructionDidNotDeserialize",
  2000: "ConstraintMut",
  2006: "ConstraintSeeds",
  2014: "ConstraintTokenMint",
  2015: "ConstraintTokenOwner",
  3001: "AccountDiscriminatorNotFound",
  3002: "AccountDiscriminatorMismatch",
  3003: "AccountDidNotDeserialize",
  3005: "AccountNotEnoughKeys",
  3007: "AccountOwnedByWrongProgram",
  3008: "InvalidProgramId",
  3010: "AccountNotSigner",
  3012: "AccountNotInitialized",
};

export type HtlcProgramKind = "native" | "spl";

/** The name of a custom error number an HTLC program returned, or undefined when it is not one of them. */
export function htlcErrorName(
  kind: HtlcProgramKind,
  code: number,
  version: SolanaProgramVersion = "current",
): string | undefined {
  return PROGRAM_ERRORS[version][kind][code] ?? ANCHOR_FRAMEWORK_ERRORS[code];
}

/**
 * A live swap of these terms that none of the order's journaled fills made holds the address (someone
 * initiated the same terms themselves): nothing is sent, and the fill is not done.
 */
export class SwapOccupiedError extends Error {
  constructor(account: string, asset: string) {
    super(`swap account ${account} of ${asset} holds an initiation that is not the solver's fill`);
    this.name = "SwapOccupiedError";
  }
}

/** An instant refund's payee has no token account of the mint: the solver does not pay to create one. */
export class PayeeAccountMissingError extends Error {
  constructor(orderId: string, tokenAccount: string, asset: string) {
    super(
      `instant refund of order ${orderId}: the user's ${asset} token account ${tokenAccount} does not exist; ` +
        "the solver does not pay its rent (it is sent once the user opens the account again)",
    );
    this.name = "PayeeAccountMissingError";
  }
}

/** One of the order's journaled fill transactions landed: the fill is done, nothing is sent. */
export class FillAlreadyLandedError extends AlreadyOnChainError {
  constructor(orderId: string, signature: string) {
    super(`a fill of order ${orderId} already landed in ${signature}`);
    this.name = "FillAlreadyLandedError";
  }
}

/** An action the Solana executor cannot build as asked (wrong party, no secret, nothing to spend). */
export class SolanaActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SolanaActionError";
  }
}

/** The transaction fails in simulation: it is never signed. */
export class SolanaTxWouldFailError extends Error {
  constructor(
    readonly what: string,
    readonly reason: string,
    readonly logs: readonly string[],
  ) {
    super(`${what} would fail: ${reason}`);
    this.name = "SolanaTxWouldFailError";
  }
}

/** A node refused a journaled transaction; the attempt follower sends it again until it is provably dead. */
export class SolanaBroadcastError extends Error {
  constructor(chain: string, signature: string, nodeSays: string) {
    super(`broadcast of ${signature} on ${chain} failed: ${nodeSays}`);
    this.name = "SolanaBroadcastError";
  }
}

/**
 * A transaction error as the RPC shows it (`{"InstructionError":[2,{"Custom":6001}]}`), in words: the
 * instruction, and the HTLC program's or Anchor's name for a custom error number.
 */
export function describeTxError(
  err: unknown,
  kind: HtlcProgramKind,
  version: SolanaProgramVersion = "current",
): string {
  if (typeof err === "string") return err;
  const instruction = (err as { InstructionError?: unknown } | null)?.InstructionError;
  if (Array.isArray(instruction) && instruction.length === 2) {
    const [index, cause] = instruction as [unknown, unknown];
    const custom = (cause as { Custom?: unknown } | null)?.Custom;
    if (typeof custom === "number") {
      const name = htlcErrorName(kind, custom, version);
      return `instruction ${String(index)}: custom error ${custom}${name === undefined ? "" : ` (${name})`}`;
    }
    return `instruction ${String(index)}: ${typeof cause === "string" ? cause : JSON.stringify(cause)}`;
  }
  return JSON.stringify(err);
}
