/**
 * litesvm's transaction errors in the JSON shape the Solana RPC uses for `err` ("BlockhashNotFound",
 * {"InstructionError":[0,{"Custom":6002}]}, …), so clients parse local and real errors alike.
 */
import { FailedTransactionMetadata, type TransactionMetadata } from "litesvm";

export type RpcTransactionError =
  | string
  | { InstructionError: [number, string | { Custom: number } | { BorshIoError: string }] }
  | { DuplicateInstruction: number }
  | { InsufficientFundsForRent: { account_index: number } }
  | { ProgramExecutionTemporarilyRestricted: { account_index: number } };

/** Names of litesvm's fieldless TransactionError values, in its numbering. */
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

/** Names of litesvm's fieldless InstructionError values, in its numbering. */
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

type LiteSvmError = ReturnType<FailedTransactionMetadata["err"]>;
type LiteSvmInstructionError = ReturnType<Extract<LiteSvmError, { err(): unknown }>["err"]>;

function instructionError(
  err: LiteSvmInstructionError,
): string | { Custom: number } | { BorshIoError: string } {
  if (typeof err === "number") return INSTRUCTION_ERRORS[err] ?? `InstructionError${err}`;
  if ("code" in err) return { Custom: err.code };
  return { BorshIoError: err.msg };
}

export function rpcTransactionError(err: LiteSvmError): RpcTransactionError {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`;
  if ("err" in err) return { InstructionError: [err.index, instructionError(err.err())] };
  if ("accountIndex" in err) {
    const name = err.toString().includes("Restricted")
      ? "ProgramExecutionTemporarilyRestricted"
      : "InsufficientFundsForRent";
    return name === "InsufficientFundsForRent"
      ? { InsufficientFundsForRent: { account_index: err.accountIndex } }
      : { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  }
  return { DuplicateInstruction: err.index };
}

/** The error of a litesvm result, or null when it succeeded. */
export function resultError(
  result: TransactionMetadata | FailedTransactionMetadata,
): RpcTransactionError | null {
  return result instanceof FailedTransactionMetadata ? rpcTransactionError(result.err()) : null;
}

/** The custom program error number inside an RPC error, if it is one. */
export function customErrorCode(err: RpcTransactionError | null): number | undefined {
  if (err === null || typeof err === "string" || !("InstructionError" in err)) return undefined;
  const inner = err.InstructionError[1];
  return typeof inner === "object" && "Custom" in inner ? inner.Custom : undefined;
}
