/** Bitcoin Core's script errors and their texts (ScriptErrorString), the part that the mempool reports. */
export const SCRIPT_ERROR = {
  EVAL_FALSE: "Script evaluated without error but finished with a false/empty top stack element",
  OP_RETURN: "OP_RETURN was encountered",
  PUSH_SIZE: "Push value size limit exceeded",
  OP_COUNT: "Operation limit exceeded",
  SCRIPT_SIZE: "Script is too big",
  STACK_SIZE: "Stack size limit exceeded",
  VERIFY: "Script failed an OP_VERIFY operation",
  EQUALVERIFY: "Script failed an OP_EQUALVERIFY operation",
  CHECKSIGVERIFY: "Script failed an OP_CHECKSIGVERIFY operation",
  NUMEQUALVERIFY: "Script failed an OP_NUMEQUALVERIFY operation",
  BAD_OPCODE: "Opcode missing or not understood",
  DISABLED_OPCODE: "Attempted to use a disabled opcode",
  INVALID_STACK_OPERATION: "Operation not valid with the current stack size",
  INVALID_ALTSTACK_OPERATION: "Operation not valid with the current altstack size",
  UNBALANCED_CONDITIONAL: "Invalid OP_IF construction",
  NEGATIVE_LOCKTIME: "Negative locktime",
  UNSATISFIED_LOCKTIME: "Locktime requirement not satisfied",
  SIG_HASHTYPE: "Signature hash type missing or not understood",
  SIG_DER: "Non-canonical DER signature",
  MINIMALDATA: "Data push larger than necessary",
  SIG_HIGH_S: "Non-canonical signature: S value is unnecessarily high",
  MINIMALIF: "OP_IF/NOTIF argument must be minimal",
  SIG_NULLFAIL: "Signature must be zero for failed CHECK(MULTI)SIG operation",
  DISCOURAGE_UPGRADABLE_NOPS: "NOPx reserved for soft-fork upgrades",
  DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM: "Witness version reserved for soft-fork upgrades",
  DISCOURAGE_UPGRADABLE_TAPROOT_VERSION: "Taproot version reserved for soft-fork upgrades",
  DISCOURAGE_OP_SUCCESS: "OP_SUCCESSx reserved for soft-fork upgrades",
  DISCOURAGE_UPGRADABLE_PUBKEYTYPE: "Public key version reserved for soft-fork upgrades",
  PUBKEYTYPE: "Public key is neither compressed or uncompressed",
  CLEANSTACK: "Stack size must be exactly one after execution",
  WITNESS_PROGRAM_WRONG_LENGTH: "Witness program has incorrect length",
  WITNESS_PROGRAM_WITNESS_EMPTY: "Witness program was passed an empty witness",
  WITNESS_PROGRAM_MISMATCH: "Witness program hash mismatch",
  WITNESS_MALLEATED: "Witness requires empty scriptSig",
  WITNESS_UNEXPECTED: "Witness provided for non-witness script",
  WITNESS_PUBKEYTYPE: "Using non-compressed keys in segwit",
  SCHNORR_SIG_SIZE: "Invalid Schnorr signature size",
  SCHNORR_SIG_HASHTYPE: "Invalid Schnorr signature hash type",
  SCHNORR_SIG: "Invalid Schnorr signature",
  TAPROOT_WRONG_CONTROL_SIZE: "Invalid Taproot control block size",
  TAPSCRIPT_VALIDATION_WEIGHT: "Too much signature validation relative to witness weight",
  TAPSCRIPT_CHECKMULTISIG: "OP_CHECKMULTISIG(VERIFY) is not available in tapscript",
  TAPSCRIPT_MINIMALIF: "OP_IF/NOTIF argument must be minimal in tapscript",
  /** bitcoind reports script-number overflows and non-minimal numbers this way. */
  UNKNOWN_ERROR: "unknown error",
} as const;

export type ScriptErrorKey = keyof typeof SCRIPT_ERROR;

/** A script failed; the message is bitcoind's text for the error. */
export class ScriptFailure extends Error {
  override readonly name = "ScriptFailure";
  constructor(readonly key: ScriptErrorKey) {
    super(SCRIPT_ERROR[key]);
  }
}

/**
 * The spend uses a construction the local node does not implement (P2PKH, P2SH, P2WSH inputs,
 * OP_CHECKMULTISIG): it is refused rather than accepted unchecked.
 */
export class UnsupportedScriptError extends Error {
  override readonly name = "UnsupportedScriptError";
}
