/** SQLite database of the local service (better-sqlite3, WAL). */
import Database from "better-sqlite3";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  order_id TEXT PRIMARY KEY,
  created_at_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  settled INTEGER NOT NULL DEFAULT 0,
  from_chain TEXT NOT NULL,
  to_chain TEXT NOT NULL,
  from_owner TEXT NOT NULL,
  to_owner TEXT NOT NULL,
  source_swap_id TEXT NOT NULL UNIQUE,
  destination_swap_id TEXT NOT NULL,
  source_watch_from TEXT NOT NULL,
  destination_watch_from TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_created ON orders (created_at_ms DESC);
CREATE INDEX IF NOT EXISTS orders_unsettled ON orders (settled) WHERE settled = 0;

-- Secrets the service made; kept apart from the order body so a read can never leak one.
CREATE TABLE IF NOT EXISTS order_secrets (
  order_id TEXT PRIMARY KEY REFERENCES orders (order_id),
  secret TEXT NOT NULL
);

-- Per-order Bitcoin keys the service made (the source HTLC's initiator key, or the destination's
-- redeemer key when the service holds the secret); like secrets, never part of an order body.
CREATE TABLE IF NOT EXISTS order_keys (
  order_id TEXT NOT NULL REFERENCES orders (order_id),
  side TEXT NOT NULL,
  swap_id TEXT NOT NULL UNIQUE,
  private_key TEXT NOT NULL,
  PRIMARY KEY (order_id, side)
);

-- Transactions the service sent for an order (initiate by signature, service redeem, Bitcoin refund).
CREATE TABLE IF NOT EXISTS relays (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id TEXT NOT NULL REFERENCES orders (order_id),
  kind TEXT NOT NULL,
  chain TEXT NOT NULL,
  tx_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  error TEXT,
  created_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS relays_order ON relays (order_id, kind);
`;

export type ServiceDb = Database.Database;

export function openServiceDb(path: string): ServiceDb {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  return db;
}
