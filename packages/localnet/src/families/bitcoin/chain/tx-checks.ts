import type { Transaction } from "bitcoinjs-lib";
import { isCoinbaseTx, isNullPrevout, outpointKey, prevTxid, type Coin } from "./coins.js";
import { formatMoney, TxRejectedError } from "./errors.js";
import { REGTEST } from "./params.js";

/** Context-free consensus checks (Bitcoin Core's CheckTransaction). */
export function checkTransaction(tx: Transaction): void {
  if (tx.ins.length === 0) throw new TxRejectedError("bad-txns-vin-empty");
  if (tx.outs.length === 0) throw new TxRejectedError("bad-txns-vout-empty");
  if (tx.byteLength(false) * 4 > REGTEST.maxBlockWeight) throw new TxRejectedError("bad-txns-oversize");
  let total = 0n;
  for (const out of tx.outs) {
    if (out.value < 0n) throw new TxRejectedError("bad-txns-vout-negative");
    if (out.value > REGTEST.maxMoney) throw new TxRejectedError("bad-txns-vout-toolarge");
    total += out.value;
    if (total > REGTEST.maxMoney) throw new TxRejectedError("bad-txns-txouttotal-toolarge");
  }
  const seen = new Set<string>();
  for (const input of tx.ins) {
    const key = outpointKey(prevTxid(input), input.index);
    if (seen.has(key)) throw new TxRejectedError("bad-txns-inputs-duplicate");
    seen.add(key);
  }
  if (isCoinbaseTx(tx)) {
    const length = tx.ins[0]?.script.length ?? 0;
    if (length < 2 || length > 100) throw new TxRejectedError("bad-cb-length");
  } else if (tx.ins.some(isNullPrevout)) {
    throw new TxRejectedError("bad-txns-prevout-null");
  }
}

/**
 * Input-dependent consensus checks (Bitcoin Core's CheckTxInputs) for a spend in a block at
 * `spendHeight`: coinbase maturity and value balance. Returns the fee.
 */
export function checkTxInputs(tx: Transaction, coins: Coin[], spendHeight: number): bigint {
  let valueIn = 0n;
  for (const coin of coins) {
    if (coin.coinbase && spendHeight - coin.height < REGTEST.coinbaseMaturity) {
      throw new TxRejectedError(
        "bad-txns-premature-spend-of-coinbase",
        `tried to spend coinbase at depth ${spendHeight - coin.height}`,
      );
    }
    valueIn += coin.value;
    if (coin.value < 0n || coin.value > REGTEST.maxMoney || valueIn > REGTEST.maxMoney) {
      throw new TxRejectedError("bad-txns-inputvalues-outofrange");
    }
  }
  const valueOut = tx.outs.reduce((sum, out) => sum + out.value, 0n);
  if (valueIn < valueOut) {
    throw new TxRejectedError(
      "bad-txns-in-belowout",
      `value in (${formatMoney(valueIn)}) < value out (${formatMoney(valueOut)})`,
    );
  }
  return valueIn - valueOut;
}
