import type { Transaction } from "bitcoinjs-lib";
import { ScriptContext } from "./script-context.js";
import { ScriptFailure, UnsupportedScriptError } from "./script-error.js";
import { executeWitnessScript } from "./script-interpreter.js";
import { TransactionSignatureChecker, type SpentOutput } from "./signature-checker.js";
import {
  isValidControlBlockSize,
  TAPSCRIPT_LEAF_VERSION,
  tapleafHash,
  verifyTaprootCommitment,
  witnessSerializedSize,
} from "./taproot.js";
import { describeOutput } from "./output-script.js";

const ANNEX_TAG = 0x50;

/** A native witness program: version and program bytes, or null for any other script. */
export function witnessProgram(script: Uint8Array): { version: number; program: Uint8Array } | null {
  if (script.length < 4 || script.length > 42) return null;
  const first = script[0] ?? 0xff;
  if (first !== 0x00 && (first < 0x51 || first > 0x60)) return null;
  if (script[1] !== script.length - 2) return null;
  return { version: first === 0 ? 0 : first - 0x50, program: script.subarray(2) };
}

/**
 * Verifies the witness of input `index` against the output it spends, with standardness flags
 * (`policy`, as the mempool does) or consensus flags only. Throws ScriptFailure with bitcoind's
 * error, or UnsupportedScriptError for spends of output types the node does not implement.
 */
export function verifyInput(tx: Transaction, index: number, spent: SpentOutput[], policy: boolean): void {
  const input = tx.ins[index];
  const prevout = spent[index];
  if (input === undefined || prevout === undefined) throw new Error(`input ${index} has no spent output`);
  const witness = witnessProgram(prevout.script);
  if (witness === null) {
    throw new UnsupportedScriptError(
      `input ${index} spends a ${describeOutput(prevout.script).type} output; the local regtest node verifies P2WPKH and P2TR spends only`,
    );
  }
  if (input.script.length > 0) throw new ScriptFailure("WITNESS_MALLEATED");
  const checker = new TransactionSignatureChecker(tx, index, spent);
  const stack = input.witness;
  if (witness.version === 0) return verifyWitnessV0(witness.program, stack, checker, policy);
  if (witness.version === 1 && witness.program.length === 32) {
    return verifyTaproot(witness.program, stack, checker, policy);
  }
  if (policy) throw new ScriptFailure("DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM");
}

function verifyWitnessV0(
  program: Uint8Array,
  stack: Uint8Array[],
  checker: TransactionSignatureChecker,
  policy: boolean,
): void {
  if (program.length === 32) {
    if (stack.length === 0) throw new ScriptFailure("WITNESS_PROGRAM_WITNESS_EMPTY");
    throw new UnsupportedScriptError("P2WSH spends are not implemented by the local regtest node");
  }
  if (program.length !== 20) throw new ScriptFailure("WITNESS_PROGRAM_WRONG_LENGTH");
  if (stack.length !== 2) throw new ScriptFailure("WITNESS_PROGRAM_MISMATCH");
  // P2WPKH runs the P2PKH script of the key hash, which is also the BIP-143 scriptCode.
  const scriptCode = Uint8Array.from([0x76, 0xa9, 0x14, ...program, 0x88, 0xac]);
  executeWitnessScript(new ScriptContext("witness_v0", policy, checker, scriptCode, stack, 0));
}

function verifyTaproot(
  program: Uint8Array,
  witness: Uint8Array[],
  checker: TransactionSignatureChecker,
  policy: boolean,
): void {
  const stack = [...witness];
  if (stack.length === 0) throw new ScriptFailure("WITNESS_PROGRAM_WITNESS_EMPTY");
  const last = stack[stack.length - 1];
  if (stack.length >= 2 && last !== undefined && last[0] === ANNEX_TAG) {
    checker.annex = last;
    stack.pop();
  }
  if (stack.length === 1) {
    checker.checkSchnorr(stack[0] ?? new Uint8Array(0), program);
    return;
  }
  const control = stack.pop() ?? new Uint8Array(0);
  const script = stack.pop() ?? new Uint8Array(0);
  if (!isValidControlBlockSize(control)) throw new ScriptFailure("TAPROOT_WRONG_CONTROL_SIZE");
  const leafVersion = (control[0] ?? 0) & 0xfe;
  const leafHash = tapleafHash(leafVersion, script);
  if (!verifyTaprootCommitment(control, program, leafHash))
    throw new ScriptFailure("WITNESS_PROGRAM_MISMATCH");
  if (leafVersion !== TAPSCRIPT_LEAF_VERSION) {
    if (policy) throw new ScriptFailure("DISCOURAGE_UPGRADABLE_TAPROOT_VERSION");
    return;
  }
  checker.leafHash = leafHash;
  const budget = witnessSerializedSize(witness) + 50;
  executeWitnessScript(new ScriptContext("tapscript", policy, checker, script, stack, budget));
}
