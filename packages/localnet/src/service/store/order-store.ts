/** Orders as the API shows them (JSON body) plus the columns the service filters and watches by. */
import type { Order, OrderStatus } from "htlc-solver/orderbook/types.js";
import type { Statement } from "better-sqlite3";
import { addressesOf, type ServiceDb } from "./db.js";
import { insertOrderKeys, type OrderKey } from "./key-store.js";
import { compiledStatements } from "htlc-solver/util/compiled-statements.js";

export interface StoredOrder {
  order: Order;
  /** Owners in comparison form (lowercase on EVM). */
  fromOwner: string;
  toOwner: string;
  /** Chain heights at creation: no event of a side can be older. */
  sourceWatchFrom: bigint;
  destinationWatchFrom: bigint;
  /** Both sides are final; the watcher stops reading the chains for it. */
  settled: boolean;
}

export interface OrderFilter {
  /** Lowercase. */
  fromOwner?: string;
  toOwner?: string;
  address?: string;
  /** Lowercase hex without 0x. */
  txHash?: string;
  fromChain?: string;
  toChain?: string;
  statuses?: OrderStatus[];
}

interface OrderRow {
  body: string;
  from_owner: string;
  to_owner: string;
  source_watch_from: string;
  destination_watch_from: string;
  settled: number;
}

const TX_FIELDS = ["initiate_tx_hash", "redeem_tx_hash", "refund_tx_hash"].flatMap((field) => [
  `$.source_swap.${field}`,
  `$.destination_swap.${field}`,
]);

export class OrderStore {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: ServiceDb) {
    this.sql = compiledStatements(db);
  }

  /** Inserts the order and, when the service made them, its secret and its Bitcoin keys, atomically. */
  insert(stored: StoredOrder, secret: string | null, keys: OrderKey[] = []): void {
    const { order } = stored;
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO orders (order_id, created_at_ms, status, settled, from_chain, to_chain, from_owner, to_owner,
             source_swap_id, destination_swap_id, source_watch_from, destination_watch_from, body)
           VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        order.order_id,
        Date.parse(order.created_at),
        order.status,
        order.source_swap.chain,
        order.destination_swap.chain,
        stored.fromOwner,
        stored.toOwner,
        order.source_swap.swap_id,
        order.destination_swap.swap_id,
        stored.sourceWatchFrom.toString(),
        stored.destinationWatchFrom.toString(),
        JSON.stringify(order),
      );
      const index = this.sql("INSERT OR IGNORE INTO order_addresses (address, order_id) VALUES (?, ?)");
      for (const address of addressesOf(order, [stored.fromOwner, stored.toOwner]))
        index.run(address, order.order_id);
      if (secret !== null) {
        this.sql("INSERT INTO order_secrets (order_id, secret) VALUES (?, ?)").run(order.order_id, secret);
      }
      insertOrderKeys(this.db, order.order_id, keys);
    })();
  }

  get(orderId: string): StoredOrder | undefined {
    const row = this.sql("SELECT * FROM orders WHERE order_id = ?").get(orderId) as OrderRow | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  hasSourceSwap(swapId: string): boolean {
    return this.sql("SELECT 1 FROM orders WHERE source_swap_id = ?").get(swapId) !== undefined;
  }

  secretOf(orderId: string): string | undefined {
    const row = this.sql("SELECT secret FROM order_secrets WHERE order_id = ?").get(orderId) as
      { secret: string } | undefined;
    return row?.secret;
  }

  update(order: Order, settled: boolean): void {
    this.sql("UPDATE orders SET status = ?, settled = ?, body = ? WHERE order_id = ?").run(
      order.status,
      settled ? 1 : 0,
      JSON.stringify(order),
      order.order_id,
    );
  }

  unsettled(): StoredOrder[] {
    const rows = this.sql(
      "SELECT * FROM orders WHERE settled = 0 ORDER BY created_at_ms",
    ).all() as OrderRow[];
    return rows.map(fromRow);
  }

  /**
   * Newest first, in the order the orders were stored: an order's `created_at` is taken before its
   * creation reads the chains, so under load a later-stored order can carry an earlier time, and a client
   * that pages until it meets orders it has seen would pass over it.
   */
  list(filter: OrderFilter, page: number, perPage: number): { orders: Order[]; total: number } {
    const { where, params } = whereClause(filter);
    const total = this.sql(`SELECT count(*) AS n FROM orders ${where}`).get(params) as
      { n: number } | undefined;
    const rows = this.sql(
      `SELECT body FROM orders ${where} ORDER BY rowid DESC LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: perPage, offset: (page - 1) * perPage }) as { body: string }[];
    return { orders: rows.map((row) => JSON.parse(row.body) as Order), total: total?.n ?? 0 };
  }
}

function whereClause(filter: OrderFilter): { where: string; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.fromOwner !== undefined) {
    conditions.push("from_owner = @fromOwner");
    params.fromOwner = filter.fromOwner;
  }
  if (filter.toOwner !== undefined) {
    conditions.push("to_owner = @toOwner");
    params.toOwner = filter.toOwner;
  }
  if (filter.address !== undefined) {
    conditions.push("order_id IN (SELECT order_id FROM order_addresses WHERE address = @address)");
    params.address = filter.address;
  }
  if (filter.txHash !== undefined) {
    // Contains, not equals: Bitcoin hashes may carry `:height` suffixes or be comma-separated lists.
    const fields = TX_FIELDS.map((path) => `instr(lower(json_extract(body, '${path}')), @txHash) > 0`);
    conditions.push(`(${fields.join(" OR ")})`);
    params.txHash = filter.txHash;
  }
  if (filter.fromChain !== undefined) {
    conditions.push("from_chain = @fromChain");
    params.fromChain = filter.fromChain;
  }
  if (filter.toChain !== undefined) {
    conditions.push("to_chain = @toChain");
    params.toChain = filter.toChain;
  }
  if (filter.statuses !== undefined && filter.statuses.length > 0) {
    const names = filter.statuses.map((status, i) => {
      params[`status${i}`] = status;
      return `@status${i}`;
    });
    conditions.push(`status IN (${names.join(", ")})`);
  }
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", params };
}

function fromRow(row: OrderRow): StoredOrder {
  return {
    order: JSON.parse(row.body) as Order,
    fromOwner: row.from_owner,
    toOwner: row.to_owner,
    sourceWatchFrom: BigInt(row.source_watch_from),
    destinationWatchFrom: BigInt(row.destination_watch_from),
    settled: row.settled === 1,
  };
}
