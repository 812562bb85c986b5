/**
 * The batch sizes the solver achieved: per chain and action kind, the transactions mined since a moment
 * and how many actions they carried (`action_attempts`). Read by pricing to share each transaction's
 * own cost among the orders it served.
 */
import type Database from "better-sqlite3";
import type { BatchSize } from "../pricing/network-fees/batch-size.js";
import { batchKey } from "../pricing/network-fees/facts.js";

export function recentBatchSizes(db: Database.Database, sinceMs: number): Map<string, BatchSize> {
  const rows = db
    .prepare(
      `SELECT t.chain AS chain, a.kind AS kind,
              COUNT(DISTINCT t.id) AS transactions, COUNT(*) AS actions
         FROM tx_attempts t
         JOIN action_attempts aa ON aa.attempt_id = t.id
         JOIN actions a ON a.id = aa.action_id
        WHERE t.state = 'confirmed' AND t.updated_ms >= ?
        GROUP BY t.chain, a.kind`,
    )
    .all(sinceMs) as { chain: string; kind: string; transactions: number; actions: number }[];
  return new Map(
    rows.map((row) => [
      batchKey(row.chain, row.kind),
      { transactions: row.transactions, actions: row.actions },
    ]),
  );
}
