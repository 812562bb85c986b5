/**
 * What the journal's live (signed, broadcast or replaced) Bitcoin attempts mean for the wallet: the
 * outputs they spend must not be selected again, and the change they pay back is the wallet's before it
 * confirms, as long as the attempt can still land. Read from the raw transactions themselves, so it
 * survives a crash exactly as journaled.
 */
import { Transaction } from "bitcoinjs-lib";
import type { AttemptState, TxAttemptRef } from "../chain.js";
import { equalBytes, hashToTxid } from "./bytes.js";
import type { SpendableUtxo } from "./coin-selection.js";

export interface JournalOutputs {
  /** `txid:vout` of every output some live attempt spends. */
  spent: Set<string>;
  /** Unconfirmed outputs paying the wallet from live attempts that can still land. */
  change: ChangeOutput[];
}

export interface ChangeOutput extends SpendableUtxo {
  /** A new payment may spend it now (see `OutputsContext.chainWindowMs`). */
  chainable: boolean;
}

export interface OutputsContext {
  walletScript: Uint8Array;
  /** `txid:vout` of the wallet's confirmed unspent outputs. */
  confirmed: ReadonlySet<string>;
  /** How the journal left a transaction that is not live; null when it never signed one with that hash. */
  journaledState(txid: string): AttemptState | null;
  nowMs: number;
  /**
   * How long after it was journaled an attempt's change may fund a new payment. The follower replaces a
   * transaction that pends too long, evicting every payment chained on it; change of an attempt older
   * than this, or descending from one, waits for its block.
   */
  chainWindowMs: number;
}

interface ParsedAttempt {
  attempt: TxAttemptRef;
  tx: Transaction;
  txid: string;
  inputs: string[];
  /** Live attempts spending one of the same inputs: at most one of them can confirm. */
  conflicts: ParsedAttempt[];
  /** A later conflicting attempt exists: this one was replaced. */
  replaced: boolean;
  /** An earlier conflicting attempt exists: this one is a replacement under way. */
  replacing: boolean;
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
      const inputs = inputOutpoints(tx);
      const conflicts: ParsedAttempt[] = [];
      return { attempt, tx, txid: tx.getId(), inputs, conflicts, replaced: false, replacing: false };
    });
  parsed.forEach((attempt, index) => {
    const conflicting = (other: ParsedAttempt) => other.inputs.some((i) => attempt.inputs.includes(i));
    const earlier = parsed.slice(0, index).filter(conflicting);
    const later = parsed.slice(index + 1).filter(conflicting);
    attempt.conflicts = [...earlier, ...later];
    attempt.replaced = later.length > 0;
    attempt.replacing = earlier.length > 0;
  });
  return parsed;
}

/**
 * An attempt can still land unless another live attempt over the same inputs is mined or, none being
 * mined, replaces it; or unless one of its inputs comes from a transaction that cannot land: a replaced
 * attempt, or one the journal gave up (dropped or failed) that the chain does not hold. Its change
 * counts only while it can land. It may fund a new payment only while it and every unconfirmed attempt
 * it descends from are within `chainWindowMs` and not being replaced.
 */
export function journalOutputs(attempts: TxAttemptRef[], context: OutputsContext): JournalOutputs {
  const parsed = parseAttempts(attempts);
  const byTxid = new Map(parsed.map((p) => [p.txid, p]));
  const spent = new Set(parsed.flatMap((p) => p.inputs));
  // Seen in a block: one of its wallet outputs is confirmed and unspent.
  const mined = (p: ParsedAttempt) =>
    p.tx.outs.some((_, vout) => context.confirmed.has(outpointOf(p.txid, vout)));
  const landable = memo((attempt: ParsedAttempt, self): boolean => {
    if (mined(attempt)) return true;
    if (attempt.replaced || attempt.conflicts.some(mined)) return false;
    return attempt.inputs.every((input) => {
      if (context.confirmed.has(input)) return true;
      const parent = byTxid.get(txidOfOutpoint(input));
      if (parent !== undefined) return self(parent);
      const state = context.journaledState(txidOfOutpoint(input));
      return state !== "dropped" && state !== "failed";
    });
  });
  const chainable = memo((attempt: ParsedAttempt, self): boolean => {
    if (!landable(attempt) || attempt.replacing) return false;
    if (context.nowMs - attempt.attempt.createdAtMs >= context.chainWindowMs) return false;
    return attempt.inputs.every((input) => {
      const parent = context.confirmed.has(input) ? undefined : byTxid.get(txidOfOutpoint(input));
      return parent === undefined || self(parent);
    });
  });
  const change: ChangeOutput[] = [];
  for (const attempt of parsed) {
    if (!landable(attempt)) continue;
    const canChain = chainable(attempt);
    attempt.tx.outs.forEach((out, vout) => {
      if (!equalBytes(out.script, context.walletScript)) return;
      if (spent.has(outpointOf(attempt.txid, vout))) return;
      change.push({ txid: attempt.txid, vout, value: out.value, confirmed: false, chainable: canChain });
    });
  }
  return { spent, change };
}

/** A judgement of each attempt, made once; its own ancestors are judged through `self`. */
function memo(
  judge: (attempt: ParsedAttempt, self: (parent: ParsedAttempt) => boolean) => boolean,
): (attempt: ParsedAttempt) => boolean {
  const known = new Map<string, boolean>();
  const self = (attempt: ParsedAttempt): boolean => {
    const cached = known.get(attempt.txid);
    if (cached !== undefined) return cached;
    // A transaction cannot descend from itself; this only ends a malformed loop.
    known.set(attempt.txid, false);
    const verdict = judge(attempt, self);
    known.set(attempt.txid, verdict);
    return verdict;
  };
  return self;
}

function txidOfOutpoint(outpoint: string): string {
  return outpoint.slice(0, outpoint.indexOf(":"));
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
      if (!candidate.inputs.some((input) => ancestors.has(txidOfOutpoint(input)))) continue;
      ancestors.add(candidate.txid);
      found.push(candidate.attempt);
      grew = true;
    }
  }
  return found;
}
