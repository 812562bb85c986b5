/** SQLite database of the local service (better-sqlite3, WAL). */
import Database from "better-sqlite3";
import type { Order } from "htlc-solver/orderbook/types.js";

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
-- Listings are newest first by storage order (rowid): an index by created_at_ms served none of them.
DROP INDEX IF EXISTS orders_created;
CREATE INDEX IF NOT EXISTS orders_unsettled ON orders (settled) WHERE settled = 0;
CREATE INDEX IF NOT EXISTS orders_status ON orders (status);

-- Every address an order names (its owners and each side's initiator and redeemer), lowercase: a listing
-- by address reads this index instead of parsing every order's body.
CREATE TABLE IF NOT EXISTS order_addresses (
  address TEXT NOT NULL,
  order_id TEXT NOT NULL REFERENCES orders (order_id),
  PRIMARY KEY (address, order_id)
) WITHOUT ROWID;

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
  indexOrderAddresses(db);
  return db;
}

/** The addresses an order names, lowercase, each once. */
export function addressesOf(order: Order, owners: readonly string[]): string[] {
  const named = [
    ...owners,
    order.source_swap.initiator,
    order.source_swap.redeemer,
    order.destination_swap.initiator,
    order.destination_swap.redeemer,
  ];
  return [...new Set(named.filter((address) => address !== "").map((address) => address.toLowerCase()))];
}

/** Fills the address index for orders stored before it existed. */
function indexOrderAddresses(db: ServiceDb): void {
  const unindexed = db
    .prepare<[], { order_id: string; from_owner: string; to_owner: string; body: string }>(
      `SELECT order_id, from_owner, to_owner, body FROM orders o
         WHERE NOT EXISTS (SELECT 1 FROM order_addresses a WHERE a.order_id = o.order_id)`,
    )
    .all();
  if (unindexed.length === 0) return;
  const insert = db.prepare("INSERT OR IGNORE INTO order_addresses (address, order_id) VALUES (?, ?)");
  db.transaction(() => {
    for (const row of unindexed) {
      const order = JSON.parse(row.body) as Order;
      for (const address of addressesOf(order, [row.from_owner, row.to_owner]))
        insert.run(address, row.order_id);
    }
  })();
}
