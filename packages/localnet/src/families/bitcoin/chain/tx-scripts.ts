import type { Transaction } from "bitcoinjs-lib";
import type { Coin } from "./coins.js";
import { TxRejectedError } from "./errors.js";
import { ScriptFailure, UnsupportedScriptError } from "./script-error.js";
import { verifyInput } from "./verify-input.js";

function runInput(tx: Transaction, index: number, coins: Coin[], policy: boolean): ScriptFailure | null {
  try {
    verifyInput(tx, index, coins, policy);
    return null;
  } catch (error) {
    if (error instanceof ScriptFailure) return error;
    if (error instanceof UnsupportedScriptError) {
      throw new TxRejectedError("unsupported-script-local-regtest", error.message);
    }
    throw error;
  }
}

/**
 * Verifies every input's witness. With `policy` (mempool) a failure is re-checked under consensus
 * flags only, to tell a standardness failure from a consensus failure as bitcoind does.
 */
export function verifyTxScripts(tx: Transaction, coins: Coin[], policy: boolean): void {
  for (let i = 0; i < tx.ins.length; i++) {
    const failure = runInput(tx, i, coins, policy);
    if (failure === null) continue;
    if (policy && runInput(tx, i, coins, false) === null) {
      throw new TxRejectedError(`non-mandatory-script-verify-flag (${failure.message})`);
    }
    throw new TxRejectedError(`mandatory-script-verify-flag-failed (${failure.message})`);
  }
}
