import type { Transaction } from "bitcoinjs-lib";
import type { Coin } from "./coins.js";
import { TxRejectedError } from "./errors.js";
import { describeOutput } from "./output-script.js";
import { REGTEST } from "./params.js";
import { parseScript } from "./script-parse.js";
import { TAPSCRIPT_LEAF_VERSION } from "./taproot.js";
import { witnessProgram } from "./verify-input.js";

const MAX_STANDARD_SCRIPTSIG_SIZE = 1650;
const MAX_STANDARD_TX_VERSION = 2;

function compactSizeLength(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
}

/** Bitcoin Core's GetDustThreshold at the default dust relay fee (3 sat/vB). */
export function dustThreshold(script: Uint8Array): bigint {
  if (script[0] === 0x6a || script.length > 10_000) return 0n;
  const outputSize = 8 + compactSizeLength(script.length) + script.length;
  // The cost of spending it later: a witness input is cheaper than a legacy one.
  const spendSize = witnessProgram(script) !== null ? 32 + 4 + 1 + 26 + 4 : 32 + 4 + 1 + 107 + 4;
  return (BigInt(outputSize + spendSize) * REGTEST.dustRelayFeeSatKvB) / 1000n;
}

function isPushOnly(script: Uint8Array): boolean {
  try {
    return [...parseScript(script)].every((op) => op.opcode <= 0x60);
  } catch {
    return false;
  }
}

/** Bitcoin Core's IsStandardTx plus the size floor, for mempool acceptance. */
export function checkStandardTx(tx: Transaction): void {
  if (tx.version > MAX_STANDARD_TX_VERSION || tx.version < 1) throw new TxRejectedError("version");
  if (tx.weight() > REGTEST.maxStandardTxWeight) throw new TxRejectedError("tx-size");
  for (const input of tx.ins) {
    if (input.script.length > MAX_STANDARD_SCRIPTSIG_SIZE) throw new TxRejectedError("scriptsig-size");
    if (!isPushOnly(input.script)) throw new TxRejectedError("scriptsig-not-pushonly");
  }
  let dataOutputs = 0;
  for (const out of tx.outs) {
    const { type } = describeOutput(out.script);
    if (type === "nonstandard") throw new TxRejectedError("scriptpubkey");
    if (type === "nulldata") {
      if (out.script.length > REGTEST.maxOpReturnRelay) throw new TxRejectedError("scriptpubkey");
      dataOutputs++;
    } else if (out.value < dustThreshold(out.script)) {
      throw new TxRejectedError("dust");
    }
  }
  if (dataOutputs > 1) throw new TxRejectedError("multi-op-return");
  if (tx.byteLength(false) < REGTEST.minStandardTxNonWitnessSize) throw new TxRejectedError("tx-size-small");
}

/** Bitcoin Core's AreInputsStandard, for the output types the node knows. */
export function checkInputsStandard(coins: Coin[]): void {
  for (const coin of coins) {
    const { type } = describeOutput(coin.script);
    if (type === "nonstandard" || type === "witness_unknown") {
      throw new TxRejectedError("bad-txns-nonstandard-inputs");
    }
  }
}

/** Bitcoin Core's IsWitnessStandard for taproot: no annex, tapscript stack items of at most 80 bytes. */
export function checkWitnessStandard(tx: Transaction, coins: Coin[]): void {
  tx.ins.forEach((input, i) => {
    const coin = coins[i];
    if (input.witness.length === 0 || coin === undefined) return;
    const program = witnessProgram(coin.script);
    if (program === null) throw new TxRejectedError("bad-witness-nonstandard");
    if (program.version !== 1 || program.program.length !== 32 || input.witness.length < 2) return;
    const stack = input.witness;
    const last = stack[stack.length - 1];
    if (last !== undefined && last[0] === 0x50) throw new TxRejectedError("bad-witness-nonstandard");
    const leafVersion = (last?.[0] ?? 0) & 0xfe;
    if (leafVersion !== TAPSCRIPT_LEAF_VERSION) return;
    const args = stack.slice(0, -2);
    if (args.some((item) => item.length > REGTEST.maxStandardTapscriptStackItemSize)) {
      throw new TxRejectedError("bad-witness-nonstandard");
    }
  });
}
