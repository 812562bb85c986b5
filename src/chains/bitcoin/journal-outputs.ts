/**
 * What the journal's live (signed, broadcast or replaced) Bitcoin attempts mean for the wallet: the
 * outputs they spend must not be selected again, and the change they pay back is spendable before it
 * confirms. Read from the raw transactions themselves, so it survives a crash exactly as journaled.
 */
import { Transaction } from "bitcoinjs-lib";
import type { TxAttemptRef } from "../chain.js";
import { equalBytes, hashToTxid } from "./bytes.js";
import type { SpendableUtxo } from "./coin-selection.js";

export interface JournalOutputs {
  /** `txid:vout` of every output some live attempt spends. */
  spent: Set<string>;
  /** Outputs paying the wallet from live attempts that no newer attempt replaces. */
  change: SpendableUtxo[];
}

export function outpointOf(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

export function inputOutpoints(tx: Transaction): string[] {
  return tx.ins.map((input) => outpointOf(hashToTxid(input.hash), input.index));
}

/**
 * A replaced attempt and its replacement spend the same inputs and both pay change; only the newest of
 * such a family is counted, since at most one of them can confirm and the newest is the one relayed.
 */
export function journalOutputs(attempts: TxAttemptRef[], walletScript: Uint8Array): JournalOutputs {
  const parsed = [...attempts]
    .sort((a, b) => a.id - b.id)
    .map((attempt) => {
      const tx = Transaction.fromHex(attempt.raw);
      return { tx, txid: tx.getId(), inputs: inputOutpoints(tx) };
    });
  const spent = new Set(parsed.flatMap((p) => p.inputs));
  const change: SpendableUtxo[] = [];
  parsed.forEach((attempt, index) => {
    const replaced = parsed
      .slice(index + 1)
      .some((later) => later.inputs.some((i) => attempt.inputs.includes(i)));
    if (replaced) return;
    attempt.tx.outs.forEach((out, vout) => {
      if (!equalBytes(out.script, walletScript) || spent.has(outpointOf(attempt.txid, vout))) return;
      change.push({ txid: attempt.txid, vout, value: out.value, confirmed: false });
    });
  });
  return { spent, change };
}
