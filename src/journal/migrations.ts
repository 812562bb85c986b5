import type Database from "better-sqlite3";

/**
 * Ordered schema migrations. Append only: a released migration never changes, so every journal on disk
 * can be brought forward.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE orders (
    order_id      TEXT PRIMARY KEY,
    snapshot      TEXT NOT NULL,
    active        INTEGER NOT NULL DEFAULT 1,
    first_seen_ms INTEGER NOT NULL,
    last_seen_ms  INTEGER NOT NULL
  );
  CREATE TABLE actions (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('fill', 'redeem', 'refund', 'instant_refund')),
    chain       TEXT NOT NULL,
    request     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('planned', 'signed', 'broadcast', 'confirmed', 'failed')),
    tries       INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_ms  INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL,
    UNIQUE (order_id, kind)
  );
  CREATE TABLE tx_attempts (
    id           INTEGER PRIMARY KEY,
    chain        TEXT NOT NULL,
    tx_hash      TEXT NOT NULL,
    raw          TEXT NOT NULL,
    nonce        TEXT,
    fee          TEXT NOT NULL,
    spends       TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('signed', 'broadcast', 'replaced', 'confirmed', 'failed', 'dropped', 'delivered')),
    block_height TEXT,
    error        TEXT,
    created_ms   INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL,
    UNIQUE (chain, tx_hash)
  );
  CREATE TABLE action_attempts (
    action_id  INTEGER NOT NULL REFERENCES actions(id),
    attempt_id INTEGER NOT NULL REFERENCES tx_attempts(id),
    PRIMARY KEY (action_id, attempt_id)
  );
  CREATE TABLE decisions (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('refuse', 'wait')),
    reason     TEXT NOT NULL,
    detail     TEXT NOT NULL,
    at_ms      INTEGER NOT NULL
  );
  CREATE INDEX decisions_order ON decisions (order_id, id);
  CREATE INDEX attempts_live ON tx_attempts (chain, state);
  `,
  `
  -- The terms (both HTLCs' parameters, the refund address) the solver acted on, written once by the
  -- order's first fill or instant refund: later rounds keep them whatever the service says.
  ALTER TABLE orders ADD COLUMN terms TEXT;
  -- Each source HTLC backs at most one order's fill or instant refund.
  CREATE TABLE source_claims (
    chain     TEXT NOT NULL,
    swap_id   TEXT NOT NULL,
    order_id  TEXT NOT NULL,
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (chain, swap_id)
  );
  CREATE INDEX source_claims_order ON source_claims (order_id);
  CREATE INDEX actions_kind_status ON actions (kind, status);
  CREATE INDEX action_attempts_attempt ON action_attempts (attempt_id);
  `,
  // Profit and loss: what each mined attempt paid, and each settled order's legs at the prices of the moment.
  `
  CREATE TABLE fees_paid (
    attempt_id  INTEGER PRIMARY KEY REFERENCES tx_attempts(id),
    fee_paid    TEXT NOT NULL,
    recorded_ms INTEGER NOT NULL
  );
  CREATE TABLE pnl_settlements (
    order_id   TEXT PRIMARY KEY,
    from_asset TEXT NOT NULL,
    to_asset   TEXT NOT NULL,
    settled_ms INTEGER NOT NULL
  );
  CREATE TABLE pnl_legs (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT NOT NULL REFERENCES pnl_settlements(order_id),
    kind       TEXT NOT NULL CHECK (kind IN ('source_received', 'destination_given', 'destination_refunded', 'network_fee')),
    asset      TEXT NOT NULL,
    decimals   INTEGER NOT NULL,
    amount     TEXT NOT NULL,
    usd_price  TEXT,
    priced_ms  INTEGER,
    attempt_id INTEGER
  );
  CREATE INDEX pnl_legs_order ON pnl_legs (order_id);
  CREATE INDEX pnl_settlements_time ON pnl_settlements (settled_ms);
  `,
  `
  -- A transaction's family terms (fee terms, input values, signatures to hand over) are typed per
  -- family; the wallet's spent outputs are read from the raw transaction itself.
  ALTER TABLE tx_attempts RENAME COLUMN fee TO terms;
  ALTER TABLE tx_attempts DROP COLUMN spends;
  `,
  `
  -- One solver instance per journal: the one whose lease this is (see lease.ts).
  CREATE TABLE lease (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    holder       TEXT NOT NULL,
    host         TEXT NOT NULL,
    pid          INTEGER NOT NULL,
    acquired_ms  INTEGER NOT NULL,
    heartbeat_ms INTEGER NOT NULL
  );
  `,
  `
  -- A cancel takes the place of a fill that is no longer safe and moves nothing; once it is final the
  -- fill can never be mined.
  ALTER TABLE tx_attempts ADD COLUMN purpose TEXT NOT NULL DEFAULT 'action';
  `,
  `
  -- Every round reads the orders still followed and the live attempts: both by index, not by scanning
  -- tables that only grow.
  CREATE INDEX orders_active ON orders (active);
  CREATE INDEX attempts_state ON tx_attempts (state);
  `,
  `
  -- Quotes and the fill gate sum the open fills by asset, and keep the sums while this counter stands
  -- still. Whoever writes, any change to an action, a new order or a change of an order's active flag
  -- moves it; decisions, snapshots and transaction attempts, most of the journal's writes, do not.
  CREATE TABLE fill_sums_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO fill_sums_epoch (id, n) VALUES (1, 0);
  CREATE TRIGGER fill_sums_action_insert AFTER INSERT ON actions
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  CREATE TRIGGER fill_sums_action_update AFTER UPDATE ON actions
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  CREATE TRIGGER fill_sums_action_delete AFTER DELETE ON actions
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  CREATE TRIGGER fill_sums_order_insert AFTER INSERT ON orders
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  CREATE TRIGGER fill_sums_order_active AFTER UPDATE OF active ON orders
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  CREATE TRIGGER fill_sums_order_delete AFTER DELETE ON orders
    BEGIN UPDATE fill_sums_epoch SET n = n + 1 WHERE id = 1; END;
  `,
  `
  -- Where each chain's reader stands in following something on its chain (chains/follow-positions.ts),
  -- so that a restart resumes a long read instead of starting it over.
  CREATE TABLE follow_positions (
    chain  TEXT NOT NULL,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (chain, key)
  );
  `,
  `
  -- A lease lapses at its holder's own deadline: the holder's period is kept beside its last renewal.
  ALTER TABLE lease ADD COLUMN ttl_ms INTEGER;
  `,
  `
  -- The source locks a claim relied on (a JSON array of lock ids): a reader that cannot read the whole of a
  -- flooded HTLC address still reads these (HtlcReadOptions.lockIds).
  ALTER TABLE source_claims ADD COLUMN lock_ids TEXT;
  `,
];

export function migrate(db: Database.Database): number {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = db.prepare("SELECT version FROM schema_version").get() as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `journal schema version ${current} is newer than this solver knows (${MIGRATIONS.length}); upgrade the solver`,
    );
  }
  const apply = db.transaction(() => {
    for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v] as string);
    db.prepare("DELETE FROM schema_version").run();
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(MIGRATIONS.length);
  });
  apply();
  return MIGRATIONS.length;
}
