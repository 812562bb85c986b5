import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openServiceDb } from "../../../../src/service/store/db.js";
import { OrderStore, type StoredOrder } from "../../../../src/service/store/order-store.js";
import { order, swapRecord } from "../orders/fixture.js";

const SOLVER = "0x00000000000000000000000000000000000000A1";
const USER = "0x00000000000000000000000000000000000000B2";

function stored(id: string, createdAt: string, overrides: Partial<StoredOrder> = {}): StoredOrder {
  const base = order(
    swapRecord({ swap_id: `${id}01`, initiator: USER, redeemer: SOLVER }),
    swapRecord({ swap_id: `${id}02`, initiator: SOLVER, redeemer: USER }),
  );
  return {
    order: { ...base, order_id: id, created_at: createdAt },
    fromOwner: USER.toLowerCase(),
    toOwner: USER.toLowerCase(),
    sourceWatchFrom: 0n,
    destinationWatchFrom: 0n,
    settled: false,
    ...overrides,
  };
}

describe("order store: listing by address", () => {
  it("finds an order by any address it names, in any case, newest first", () => {
    const store = new OrderStore(openServiceDb(":memory:"));
    store.insert(stored("o1", "2026-01-01T00:00:01.000Z"), null);
    store.insert(stored("o2", "2026-01-01T00:00:02.000Z"), null);
    const bySolver = store.list({ address: SOLVER.toLowerCase() }, 1, 10);
    expect(bySolver.total).toBe(2);
    expect(bySolver.orders.map((o) => o.order_id)).toEqual(["o2", "o1"]);
    expect(store.list({ address: "0x00000000000000000000000000000000000000c3" }, 1, 10).total).toBe(0);
  });

  it("lists an order stored later above those stored before it, whatever its created_at", () => {
    const store = new OrderStore(openServiceDb(":memory:"));
    store.insert(stored("seen", "2026-01-01T00:00:05.000Z"), null);
    // Its creation took its time before it was stored: an earlier created_at, stored last.
    store.insert(stored("slow", "2026-01-01T00:00:01.000Z"), null);
    expect(store.list({}, 1, 1).orders.map((o) => o.order_id)).toEqual(["slow"]);
    expect(store.list({ address: SOLVER.toLowerCase() }, 1, 10).orders.map((o) => o.order_id)).toEqual([
      "slow",
      "seen",
    ]);
  });

  it("indexes the addresses of orders a database held before the index existed", () => {
    const path = join(mkdtempSync(join(tmpdir(), "service-db-")), "service.sqlite");
    const db = openServiceDb(path);
    new OrderStore(db).insert(stored("o1", "2026-01-01T00:00:01.000Z"), null);
    db.exec("DELETE FROM order_addresses");
    db.close();
    const reopened = new OrderStore(openServiceDb(path));
    expect(reopened.list({ address: SOLVER.toLowerCase() }, 1, 10).orders.map((o) => o.order_id)).toEqual([
      "o1",
    ]);
  });

  it("reads the address index, not every order's body", () => {
    const db = openServiceDb(":memory:");
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT body FROM orders WHERE order_id IN (SELECT order_id FROM order_addresses WHERE address = ?) ORDER BY created_at_ms DESC",
      )
      .all("0xa1") as { detail: string }[];
    const details = plan.map((row) => row.detail).join("\n");
    expect(details).toMatch(
      /order_addresses USING PRIMARY KEY \(address=\?\)|USING COVERING INDEX.*address=\?/,
    );
  });
});
