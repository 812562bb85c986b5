import type { Transaction } from "bitcoinjs-lib";
import type { ChainState } from "./chain.js";
import { isCoinbaseTx, prevTxid, wtxidOf, type Coin } from "./coins.js";
import { formatFeeRate, formatMoney, TxRejectedError } from "./errors.js";
import { isFinalTx, sequenceLocksSatisfied } from "./lock-time.js";
import type { Mempool, MempoolEntry } from "./mempool.js";
import { REGTEST } from "./params.js";
import { checkInputsStandard, checkStandardTx, checkWitnessStandard } from "./policy.js";
import { checkTransaction, checkTxInputs } from "./tx-checks.js";
import { verifyTxScripts } from "./tx-scripts.js";

const MAX_ANCESTORS = 25;
const MAX_BIP125_SEQUENCE = 0xfffffffd;

export interface AcceptContext {
  chain: ChainState;
  mempool: Mempool;
  /** Unix seconds. */
  now(): number;
}

export interface AcceptOptions {
  /** testmempoolaccept: check everything, change nothing. */
  testOnly?: boolean;
  /** Transactions returned by a reorg skip the relay fee floor, as in bitcoind. */
  bypassFeeLimits?: boolean;
}

export interface AcceptResult {
  txid: string;
  wtxid: string;
  fee: bigint;
  vsize: number;
  /** Transactions evicted by a BIP-125 replacement (direct conflicts and their descendants). */
  replaced: string[];
}

/** Fee for `vsize` at a rate in sat/kvB, rounded up as CFeeRate::GetFee does. */
export function feeAtRate(rateSatKvB: bigint, vsize: number): bigint {
  return (rateSatKvB * BigInt(vsize) + 999n) / 1000n;
}

function signalsRbf(tx: Transaction): boolean {
  return tx.ins.some((input) => input.sequence <= MAX_BIP125_SEQUENCE);
}

/** Mempool transactions `tx` double-spends; each must signal BIP-125 replaceability. */
function directConflicts(ctx: AcceptContext, tx: Transaction): Set<string> {
  const conflicts = new Set<string>();
  for (const input of tx.ins) {
    const spender = ctx.mempool.spenderOf(prevTxid(input), input.index);
    if (spender === undefined || conflicts.has(spender)) continue;
    const entry = ctx.mempool.get(spender);
    if (entry !== undefined && !signalsRbf(entry.tx)) throw new TxRejectedError("txn-mempool-conflict");
    conflicts.add(spender);
  }
  return conflicts;
}

function spentCoins(ctx: AcceptContext, tx: Transaction, txid: string): Coin[] {
  return tx.ins.map((input) => {
    const parent = prevTxid(input);
    const coin = ctx.mempool.getCoin(parent, input.index) ?? ctx.chain.utxos.getCoin(parent, input.index);
    if (coin !== undefined) return coin;
    if (tx.outs.some((_, vout) => ctx.chain.utxos.getCoin(txid, vout) !== undefined)) {
      throw new TxRejectedError("txn-already-known");
    }
    throw new TxRejectedError("bad-txns-inputs-missingorspent", "", true);
  });
}

/** BIP-125 rules 2 to 6 as Bitcoin Core 26 applies them; returns everything the replacement evicts. */
function replacementChecks(
  ctx: AcceptContext,
  tx: Transaction,
  fee: bigint,
  vsize: number,
  direct: Set<string>,
): string[] {
  const txid = tx.getId();
  const directEntries = [...direct]
    .map((t) => ctx.mempool.get(t))
    .filter((e): e is MempoolEntry => e !== undefined);
  const newRate = (fee * 1000n) / BigInt(vsize);
  for (const old of directEntries) {
    if (newRate <= (old.fee * 1000n) / BigInt(old.vsize)) {
      const detail = `new feerate ${formatFeeRate(fee, vsize)} <= old feerate ${formatFeeRate(old.fee, old.vsize)}`;
      throw new TxRejectedError("insufficient fee", `rejecting replacement ${txid}; ${detail}`);
    }
  }
  const evicted = new Set<string>();
  for (const t of direct) for (const d of ctx.mempool.withDescendants(t)) evicted.add(d);
  if (evicted.size > REGTEST.maxReplacementCandidates) {
    throw new TxRejectedError(
      "too many potential replacements",
      `rejecting replacement ${txid}; too many potential replacements (${evicted.size} > ${REGTEST.maxReplacementCandidates})`,
    );
  }
  const parentsOfConflicts = new Set(directEntries.flatMap((e) => e.tx.ins.map(prevTxid)));
  tx.ins.forEach((input, j) => {
    const parent = prevTxid(input);
    if (!parentsOfConflicts.has(parent) && ctx.mempool.has(parent)) {
      throw new TxRejectedError(
        "replacement-adds-unconfirmed",
        `replacement ${txid} adds unconfirmed input, idx ${j}`,
      );
    }
  });
  const oldFees = [...evicted].reduce((sum, t) => sum + (ctx.mempool.get(t)?.fee ?? 0n), 0n);
  if (fee < oldFees) {
    const detail = `less fees than conflicting txs; ${formatMoney(fee)} < ${formatMoney(oldFees)}`;
    throw new TxRejectedError("insufficient fee", `rejecting replacement ${txid}, ${detail}`);
  }
  const relayFee = feeAtRate(REGTEST.incrementalRelayFeeSatKvB, vsize);
  if (fee - oldFees < relayFee) {
    const detail = `not enough additional fees to relay; ${formatMoney(fee - oldFees)} < ${formatMoney(relayFee)}`;
    throw new TxRejectedError("insufficient fee", `rejecting replacement ${txid}, ${detail}`);
  }
  return [...evicted];
}

/**
 * Bitcoin Core's AcceptToMemoryPool for one transaction, in its order of checks, so that the first
 * failure reported is the one bitcoind would report.
 */
export function acceptToMempool(
  ctx: AcceptContext,
  tx: Transaction,
  options: AcceptOptions = {},
): AcceptResult {
  const txid = tx.getId();
  const wtxid = wtxidOf(tx);
  checkTransaction(tx);
  if (isCoinbaseTx(tx)) throw new TxRejectedError("coinbase");
  checkStandardTx(tx);
  const tip = ctx.chain.tip;
  const nextHeight = tip.height + 1;
  if (!isFinalTx(tx, nextHeight, tip.medianTimePast)) throw new TxRejectedError("non-final");
  const existing = ctx.mempool.get(txid);
  if (existing !== undefined) {
    throw new TxRejectedError(
      existing.wtxid === wtxid ? "txn-already-in-mempool" : "txn-same-nonwitness-data-in-mempool",
    );
  }
  const direct = directConflicts(ctx, tx);
  const coins = spentCoins(ctx, tx, txid);
  if (!sequenceLocksSatisfied(tx, coins, nextHeight, tip.medianTimePast, (h) => ctx.chain.medianTimeAt(h))) {
    throw new TxRejectedError("non-BIP68-final");
  }
  const fee = checkTxInputs(tx, coins, nextHeight);
  checkInputsStandard(coins);
  checkWitnessStandard(tx, coins);
  const vsize = tx.virtualSize();
  const minFee = feeAtRate(REGTEST.minRelayFeeSatKvB, vsize);
  if (!options.bypassFeeLimits && fee < minFee)
    throw new TxRejectedError("min relay fee not met", `${fee} < ${minFee}`);
  const ancestors = ctx.mempool.ancestors(tx);
  if (ancestors.size + 1 > MAX_ANCESTORS) {
    throw new TxRejectedError(
      "too-long-mempool-chain",
      `too many unconfirmed ancestors [limit: ${MAX_ANCESTORS}]`,
    );
  }
  for (const ancestor of ancestors) {
    if (direct.has(ancestor)) {
      throw new TxRejectedError(
        "bad-txns-spends-conflicting-tx",
        `${txid} spends conflicting transaction ${ancestor}`,
      );
    }
  }
  const replaced = direct.size > 0 ? replacementChecks(ctx, tx, fee, vsize, direct) : [];
  verifyTxScripts(tx, coins, true);
  if (!options.testOnly) {
    for (const t of replaced) ctx.mempool.remove(t);
    ctx.mempool.add({
      tx,
      txid,
      wtxid,
      fee,
      vsize,
      weight: tx.weight(),
      time: ctx.now(),
      height: tip.height,
    });
  }
  return { txid, wtxid, fee, vsize, replaced };
}
