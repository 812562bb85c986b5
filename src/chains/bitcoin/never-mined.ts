/**
 * Why a Bitcoin attempt the node does not hold can never be mined, as the chain proves it.
 *
 * An input spent by another transaction is proof once that spend is final (`finalityDepth` deep); a
 * reorganisation shallower than that could still bring the attempt back. A redeem or refund pays the
 * solver whichever transaction lands, so for those a spend in the mempool will do. An input created by
 * one of the solver's own journaled transactions is as dead as that transaction: a payment chained on
 * the change of a fill that a bump or a cancel replaced can never be mined once the replacement (or
 * anything else spending the replaced fill's inputs) is final, and that is judged on the parent with
 * the same rule, a final spend only, whatever the parent carried.
 */
import { Transaction } from "bitcoinjs-lib";
import type { ActionRequest, JournalView } from "../chain.js";
import type { BitcoinBackend, OutputSpend } from "./backend.js";
import { inputOutpoints } from "./journal-outputs.js";

export interface NeverMinedOptions {
  chain: string;
  finalityDepth: number;
  backend: Pick<BitcoinBackend, "addressActivity" | "tipHeight" | "transactionStatus">;
  journal: Pick<JournalView, "journaledTx">;
  /** The address whose outputs an action's transaction spends: the wallet's (fills) or its HTLC's. */
  spendsFrom(action: ActionRequest): string;
}

interface Journaled {
  txHash: string;
  raw: string;
  actions: ActionRequest[];
}

export class NeverMined {
  readonly #options: NeverMinedOptions;

  constructor(options: NeverMinedOptions) {
    this.#options = options;
  }

  /** What proves the attempt can never be mined, or null when nothing does (yet). */
  reason(attempt: Journaled): Promise<string | null> {
    const paysTheSolver =
      attempt.actions.length > 0 && attempt.actions.every((a) => a.kind === "redeem" || a.kind === "refund");
    return this.#reason(attempt, paysTheSolver, new Set([attempt.txHash]));
  }

  async #reason(tx: Journaled, mempoolSpendWillDo: boolean, visited: Set<string>): Promise<string | null> {
    const inputs = inputOutpoints(Transaction.fromHex(tx.raw));
    const spent = await this.#spentElsewhere(tx, inputs, mempoolSpendWillDo);
    if (spent !== null) return spent;
    const { chain, journal, backend } = this.#options;
    for (const outpoint of inputs) {
      const parentTxid = outpoint.slice(0, outpoint.indexOf(":"));
      if (visited.has(parentTxid)) continue;
      visited.add(parentTxid);
      const parent = journal.journaledTx(chain, parentTxid);
      // Not the solver's transaction, or final on the chain: the output it created exists.
      if (parent === null || parent.state === "confirmed") continue;
      if ((await backend.transactionStatus(parentTxid, parent.raw)).state !== "unknown") continue;
      const journaled = { txHash: parentTxid, raw: parent.raw, actions: parent.actions };
      const why = await this.#reason(journaled, false, visited);
      if (why !== null) return `input ${outpoint} comes from ${parentTxid}, which can never be mined: ${why}`;
    }
    return null;
  }

  /** An input of `tx` that another transaction spends, final (or, where allowed, in the mempool). */
  async #spentElsewhere(
    tx: Journaled,
    inputs: string[],
    mempoolSpendWillDo: boolean,
  ): Promise<string | null> {
    if (tx.actions.length === 0) return null;
    const { backend, finalityDepth } = this.#options;
    const addresses = new Set(tx.actions.map((a) => this.#options.spendsFrom(a)));
    const spends = new Map<string, OutputSpend>();
    for (const address of addresses) {
      for (const output of (await backend.addressActivity(address)).outputs) {
        if (output.spentBy !== null) spends.set(`${output.txid}:${output.vout}`, output.spentBy);
      }
    }
    const tip = await backend.tipHeight();
    for (const outpoint of inputs) {
      const spend = spends.get(outpoint);
      if (spend === undefined || spend.txid === tx.txHash) continue;
      const final = spend.height !== null && tip - spend.height + 1 >= finalityDepth;
      if (!final && !mempoolSpendWillDo) continue;
      const where = spend.height === null ? "in the mempool" : `mined at ${spend.height}`;
      return `input ${outpoint} is spent by ${spend.txid} (${where})`;
    }
    return null;
  }
}
