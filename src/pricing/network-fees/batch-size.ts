/**
 * The batch discount: a transaction's own cost is shared by the actions it carries, so each action is
 * charged its share at the batch size the solver actually achieved recently on that chain (mined
 * transactions and the actions they carried, from the journal), never one it merely hopes for. With no
 * recent transaction of the kind, an action is taken to go alone.
 */
import type { ActionFeeEstimate } from "../../chains/chain.js";
import type { Ratio } from "../decimal.js";

/** Mined transactions of one chain and action kind over the recent window, and the actions they carried. */
export interface BatchSize {
  transactions: number;
  actions: number;
}

export const LONE_ACTION: BatchSize = { transactions: 1, actions: 1 };

/**
 * What one action costs, exactly: its own part plus its share of the transaction's,
 * `perAction + perTransaction × transactions / actions`.
 */
export function perActionFee(estimate: ActionFeeEstimate, batch: BatchSize): Ratio {
  const { transactions, actions } = batch.actions > 0 && batch.transactions > 0 ? batch : LONE_ACTION;
  const txs = BigInt(transactions);
  // A transaction carries at least one action: a journal that says otherwise never inflates the discount.
  const carried = BigInt(Math.max(actions, transactions));
  return { num: estimate.perAction * carried + estimate.perTransaction * txs, den: carried };
}
