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

interface ParsedAttempt {
  attempt: TxAttemptRef;
  tx: Transaction;
  txid: string;
  inputs: string[];
  /** A later live attempt spends one of the same inputs: at most one of them can confirm. */
  replaced: boolean;
}

export function outpointOf(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

export function inputOutpoints(tx: Transaction): string[] {
  return tx.ins.map((input) => outpointOf(hashToTxid(input.hash), input.index));
}

/** Oldest first; a replaced attempt and its replacement spend the same inputs, the newest is relayed. */
function parseAttempts(attempts: TxAttemptRef[]): ParsedAttempt[] {
  const parsed = [...attempts]
    .sort((a, b) => a.id - b.id)
    .map((attempt) => {
      const tx = Transaction.fromHex(attempt.raw);
      return { attempt, tx, txid: tx.getId(), inputs: inputOutpoints(tx), replaced: false };
    });
  parsed.forEach((attempt, index) => {
    attempt.replaced = parsed
      .slice(index + 1)
      .some((later) => later.inputs.some((i) => attempt.inputs.includes(i)));
  });
  return parsed;
}

/**
 * A replaced attempt and its replacement spend the same inputs and both pay change; only the newest of
 * such a family is counted, since at most one of them can confirm and the newest is the one relayed.
 */
export function journalOutputs(attempts: TxAttemptRef[], walletScript: Uint8Array): JournalOutputs {
  const parsed = parseAttempts(attempts);
  const spent = new Set(parsed.flatMap((p) => p.inputs));
  const change: SpendableUtxo[] = [];
  for (const attempt of parsed) {
    if (attempt.replaced) continue;
    attempt.tx.outs.forEach((out, vout) => {
      if (!equalBytes(out.script, walletScript) || spent.has(outpointOf(attempt.txid, vout))) return;
      change.push({ txid: attempt.txid, vout, value: out.value, confirmed: false });
    });
  }
  return { spent, change };
}

/**
 * The live attempts spending an output of `txid`, and those spending theirs in turn: the solver's own
 * descendants of that transaction, which a replacement of it evicts with it. Of a replaced family only
 * the newest counts, the one relayed.
 */
export function liveDescendants(attempts: TxAttemptRef[], txid: string): TxAttemptRef[] {
  const candidates = parseAttempts(attempts).filter((p) => !p.replaced && p.txid !== txid);
  const ancestors = new Set([txid]);
  const found: TxAttemptRef[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const candidate of candidates) {
      if (ancestors.has(candidate.txid)) continue;
      if (!candidate.inputs.some((input) => ancestors.has(input.slice(0, input.indexOf(":"))))) continue;
      ancestors.add(candidate.txid);
      found.push(candidate.attempt);
      grew = true;
    }
  }
  return found;
}
