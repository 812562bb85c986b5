/** Relayed transactions per order, so each is sent once and re-sent only after it failed. */
import type { ServiceDb } from "./db.js";

export type RelayKind = "initiate" | "redeem" | "refund";
/** `sent`: broadcast, outcome unknown; `success` / `failed`: final. */
export type RelayState = "sent" | "success" | "failed";

export interface RelayRecord {
  id: number;
  orderId: string;
  kind: RelayKind;
  chain: string;
  txHash: string;
  state: RelayState;
  error: string | null;
  createdAtMs: number;
}

interface RelayRow {
  id: number;
  order_id: string;
  kind: RelayKind;
  chain: string;
  tx_hash: string;
  state: RelayState;
  error: string | null;
  created_at_ms: number;
}

export class RelayStore {
  constructor(private readonly db: ServiceDb) {}

  latest(orderId: string, kind: RelayKind): RelayRecord | undefined {
    const row = this.db
      .prepare<[string, RelayKind], RelayRow>(
        "SELECT * FROM relays WHERE order_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
      )
      .get(orderId, kind);
    return row === undefined ? undefined : fromRow(row);
  }

  record(orderId: string, kind: RelayKind, chain: string, txHash: string, nowMs: number): void {
    this.db
      .prepare(
        "INSERT INTO relays (order_id, kind, chain, tx_hash, state, created_at_ms) VALUES (?, ?, ?, ?, 'sent', ?)",
      )
      .run(orderId, kind, chain, txHash, nowMs);
  }

  setState(id: number, state: RelayState, error: string | null = null): void {
    this.db.prepare("UPDATE relays SET state = ?, error = ? WHERE id = ?").run(state, error, id);
  }
}

function fromRow(row: RelayRow): RelayRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    kind: row.kind,
    chain: row.chain,
    txHash: row.tx_hash,
    state: row.state,
    error: row.error,
    createdAtMs: row.created_at_ms,
  };
}
