/** The texts a real node prints for transaction errors in "Transaction simulation failed: …" messages. */
import type { RpcTransactionError } from "./tx-error.js";

const TRANSACTION_TEXT: Record<string, string> = {
  BlockhashNotFound: "Blockhash not found",
  AlreadyProcessed: "This transaction has already been processed",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InsufficientFundsForFee: "Insufficient funds for fee",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  SignatureFailure: "Transaction did not pass signature verification",
};

const INSTRUCTION_TEXT: Record<string, string> = {
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountNotExecutable: "instruction expected an executable account",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  PrivilegeEscalation: "Cross-program invocation with unauthorized signer or writable account",
  ProgramFailedToComplete: "Program failed to complete",
  UnbalancedInstruction: "sum of account balances before and after instruction do not match",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  ExternalAccountLamportSpend: "instruction spent from the balance of an account it does not own",
};

export function transactionErrorText(err: RpcTransactionError): string {
  if (typeof err === "string") return TRANSACTION_TEXT[err] ?? err;
  if ("InstructionError" in err) {
    const [index, inner] = err.InstructionError;
    const detail =
      typeof inner === "string"
        ? (INSTRUCTION_TEXT[inner] ?? inner)
        : "Custom" in inner
          ? `custom program error: 0x${inner.Custom.toString(16)}`
          : `Failed to serialize or deserialize account data: ${inner.BorshIoError}`;
    return `Error processing Instruction ${index}: ${detail}`;
  }
  return JSON.stringify(err);
}
