import type { Transaction } from "bitcoinjs-lib";
import type { ChainState } from "./chain.js";
import { isCoinbaseTx, outpointKey, prevTxid, type Coin } from "./coins.js";
import { TxRejectedError } from "./errors.js";
import { isFinalTx, sequenceLocksSatisfied } from "./lock-time.js";
import { checkTransaction, checkTxInputs } from "./tx-checks.js";
import { verifyTxScripts } from "./tx-scripts.js";

/**
 * Consensus checks of the non-coinbase transactions of a block to be connected on the tip
 * (no standardness rules, as in ConnectBlock). Returns the fee of each transaction.
 */
export function validateBlockTransactions(chain: ChainState, txs: Transaction[]): bigint[] {
  const height = chain.height + 1;
  const prevMedianTime = chain.tip.medianTimePast;
  const created = new Map<string, Coin>();
  const spent = new Set<string>();
  const lookup = (txid: string, vout: number): Coin | undefined => {
    const key = outpointKey(txid, vout);
    if (spent.has(key)) return undefined;
    return created.get(key) ?? chain.utxos.getCoin(txid, vout);
  };
  return txs.map((tx) => {
    checkTransaction(tx);
    if (isCoinbaseTx(tx)) throw new TxRejectedError("bad-cb-multiple", "more than one coinbase");
    // BIP-113: nLockTime is checked against the parent's median-time-past, not the block's time.
    if (!isFinalTx(tx, height, prevMedianTime))
      throw new TxRejectedError("bad-txns-nonfinal", "non-final transaction");
    const coins = tx.ins.map((input) => {
      const coin = lookup(prevTxid(input), input.index);
      if (coin === undefined) throw new TxRejectedError("bad-txns-inputs-missingorspent", "", true);
      return coin;
    });
    if (!sequenceLocksSatisfied(tx, coins, height, prevMedianTime, (h) => chain.medianTimeAt(h))) {
      throw new TxRejectedError("bad-txns-nonfinal", "contains a non-BIP68-final transaction");
    }
    const fee = checkTxInputs(tx, coins, height);
    verifyTxScripts(tx, coins, false);
    for (const input of tx.ins) spent.add(outpointKey(prevTxid(input), input.index));
    const txid = tx.getId();
    tx.outs.forEach((out, vout) =>
      created.set(outpointKey(txid, vout), { value: out.value, script: out.script, height, coinbase: false }),
    );
    return fee;
  });
}
