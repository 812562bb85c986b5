/** Errors of the Solana client code, and the HTLC programs' error numbers with their names. */

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
export function htlcErrorName(kind: HtlcProgramKind, code: number): string | undefined {
  const own = kind === "native" ? NATIVE_HTLC_ERRORS : SPL_HTLC_ERRORS;
  return own[code] ?? ANCHOR_FRAMEWORK_ERRORS[code];
}
