/**
 * The journal's guard on the two actions that commit the solver to an order's source: the fill (our
 * money against the source) and the instant refund (the source handed back). They exclude each other for
 * an order, and each source HTLC backs them for one order only. Checked inside the same SQLite
 * transaction that writes the action's row, so no sequence of rounds, restarts or service lies can get
 * both, or two of either, past it.
 */
import type Database from "better-sqlite3";
import type { ActionKind, HtlcParams } from "../chains/chain.js";

/** The source HTLC an action commits against: its chain and its recomputed swap id. */
/** The journal's prepared statements, by their text (util/compiled-statements.ts). */
export type Statements = (text: string) => Database.Statement;

export interface SourceBacking {
  chain: string;
  swapId: string;
}

/** What the solver decided on: both HTLCs and where an instant refund pays. Frozen at the first commitment. */
export interface OrderTerms {
  source: HtlcParams;
  destination: HtlcParams;
  refundAddress: string;
}

export interface ExclusiveClaim {
  backing: SourceBacking;
  terms: OrderTerms;
  /** The source locks (`HtlcLock.id`) this action relies on. */
  lockIds: readonly string[];
}

export interface ClaimRefusal {
  ok: false;
  reason: "instant_refund_given" | "fill_exists" | "source_backs_another_order";
  detail: string;
}

/** The kinds that commit the solver to a source, and the kind each excludes. */
export const EXCLUDES: Partial<Record<ActionKind, ActionKind>> = {
  fill: "instant_refund",
  instant_refund: "fill",
};

/** Refuses the claim when the order already took the excluded action or the source backs another order. */
export function checkExclusive(
  sql: Statements,
  orderId: string,
  kind: ActionKind,
  backing: SourceBacking,
): ClaimRefusal | null {
  const excluded = EXCLUDES[kind];
  if (excluded !== undefined) {
    const exists = sql("SELECT 1 FROM actions WHERE order_id = ? AND kind = ?").get(orderId, excluded);
    if (exists !== undefined) {
      return kind === "fill"
        ? {
            ok: false,
            reason: "instant_refund_given",
            detail: "the solver signed its half of this source's instant refund; it never fills against it",
          }
        : { ok: false, reason: "fill_exists", detail: "a fill exists for this order; no instant refund" };
    }
  }
  const holder = sourceHolder(sql, backing);
  if (holder !== null && holder !== orderId) {
    return {
      ok: false,
      reason: "source_backs_another_order",
      detail: `source ${backing.chain}/${backing.swapId} already backs the solver's action for order ${holder}`,
    };
  }
  return null;
}

/** Records that this source backs this order, and freezes the order's terms if they are not yet. */
export function commitSource(
  sql: Statements,
  orderId: string,
  claim: ExclusiveClaim,
  serializedTerms: string,
  nowMs: number,
): void {
  sql(
    "INSERT INTO source_claims (chain, swap_id, order_id, at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  ).run(claim.backing.chain, normalizeId(claim.backing.swapId), orderId, nowMs);
  sql("UPDATE orders SET terms = ? WHERE order_id = ? AND terms IS NULL").run(serializedTerms, orderId);
}

/**
 * Adds the source locks an order's action relies on to those its claim already names: a fill tried again
 * may rely on other deposits than its first build, and each must stay readable.
 */
export function noteSourceLocks(sql: Statements, orderId: string, claim: ExclusiveClaim): void {
  if (claim.lockIds.length === 0) return;
  const chain = claim.backing.chain;
  const swapId = normalizeId(claim.backing.swapId);
  const row = sql("SELECT lock_ids FROM source_claims WHERE chain = ? AND swap_id = ? AND order_id = ?").get(
    chain,
    swapId,
    orderId,
  ) as { lock_ids: string | null } | undefined;
  if (row === undefined) return;
  const known = new Set(parseLockIds(row.lock_ids));
  const all = [...known, ...claim.lockIds.filter((id) => !known.has(id))];
  if (all.length === known.size) return;
  sql("UPDATE source_claims SET lock_ids = ? WHERE chain = ? AND swap_id = ?").run(
    JSON.stringify(all),
    chain,
    swapId,
  );
}

/** The source locks the order's fill or instant refund relied on. */
export function sourceLockIds(sql: Statements, orderId: string): string[] {
  const rows = sql("SELECT lock_ids FROM source_claims WHERE order_id = ?").all(orderId) as {
    lock_ids: string | null;
  }[];
  return [...new Set(rows.flatMap((row) => parseLockIds(row.lock_ids)))];
}

function parseLockIds(stored: string | null): string[] {
  if (stored === null) return [];
  const parsed: unknown = JSON.parse(stored);
  if (!Array.isArray(parsed) || !parsed.every((id): id is string => typeof id === "string"))
    throw new Error(`journal: source_claims.lock_ids is not a list of lock ids: ${stored.slice(0, 200)}`);
  return parsed;
}

/** The order a source backs, or null. */
export function sourceHolder(sql: Statements, backing: SourceBacking): string | null {
  const row = sql("SELECT order_id FROM source_claims WHERE chain = ? AND swap_id = ?").get(
    backing.chain,
    normalizeId(backing.swapId),
  ) as { order_id: string } | undefined;
  return row?.order_id ?? null;
}

/** Ids compare the way the chains write them: case-insensitive, with or without 0x. */
function normalizeId(id: string): string {
  return id.toLowerCase().replace(/^0x/, "");
}
