import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ActionRequest, SignedTx } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { claimOk, ownSource } from "../../support/journal-claims.js";
import { makeOrder } from "../../support/order-fixture.js";
import { evmTerms } from "../../support/memory-journal.js";

const order = makeOrder();
const fill: ActionRequest = {
  kind: "fill",
  orderId: order.order_id,
  params: {
    chain: "arbitrum_localnet",
    asset: "arbitrum_localnet:usdc",
    swapId: "bb".repeat(32),
    initiator: "0xa1",
    redeemer: "0xb2",
    secretHash: "cd".repeat(32),
    timelock: 600n,
    amount: 990000n,
  },
};

function signed(hash: string, nonce: bigint | null = 7n): SignedTx {
  return {
    chain: "arbitrum_localnet",
    txHash: hash,
    raw: `0xraw${hash}`,
    nonce,
    terms: evmTerms(),
  };
}

const opened: Journal[] = [];
function openJournal(path = join(mkdtempSync(join(tmpdir(), "journal-")), "j.sqlite")): {
  journal: Journal;
  path: string;
} {
  const journal = new Journal(path);
  opened.push(journal);
  return { journal, path };
}

afterEach(() => {
  for (const j of opened.splice(0)) {
    try {
      j.close();
    } catch {
      // already closed by the test
    }
  }
});

describe("journal", () => {
  it("claims each (order, action) once", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    expect(claimOk(journal, fill).created).toBe(true);
    const again = claimOk(journal, fill);
    expect(again.created).toBe(false);
    expect(journal.orderActions(order.order_id)).toHaveLength(1);
    expect(again.action.request.params.amount).toBe(990000n);
  });

  it("keeps a signed transaction across a restart so it is re-broadcast, not rebuilt", () => {
    const { journal, path } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    journal.recordSigned([action.id], signed("0x01"));
    journal.close();

    const { journal: reopened } = openJournal(path);
    const live = reopened.liveAttempts("arbitrum_localnet");
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ txHash: "0x01", raw: "0xraw0x01", nonce: 7n });
    expect(reopened.action(action.id).status).toBe("signed");
    expect(claimOk(reopened, fill).created).toBe(false);
  });

  it("confirms an action through any of its attempts and drops the others", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    const first = journal.recordSigned([action.id], signed("0x01"));
    journal.markBroadcast(first.id);
    const second = journal.recordSigned([action.id], signed("0x02"));
    journal.markReplaced(first.id);
    journal.markConfirmed(first.id, 42n);
    expect(journal.action(action.id).status).toBe("confirmed");
    expect(journal.attempt(second.id).state).toBe("dropped");
    expect(journal.liveAttempts("arbitrum_localnet")).toEqual([]);
  });

  it("fails an action only when no attempt of it is live", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    const first = journal.recordSigned([action.id], signed("0x01"));
    const second = journal.recordSigned([action.id], signed("0x02"));
    journal.markAttemptFailed(first.id, "dropped", "gone");
    expect(journal.action(action.id).status).toBe("signed");
    journal.markAttemptFailed(second.id, "failed", "reverted");
    expect(journal.action(action.id)).toMatchObject({ status: "failed", lastError: "reverted" });
  });

  it("records a decision only when it changes", () => {
    const { journal } = openJournal();
    expect(journal.recordDecision(order.order_id, "wait", "source_unconfirmed", "1 of 3")).toBe(true);
    expect(journal.recordDecision(order.order_id, "wait", "source_unconfirmed", "2 of 3")).toBe(false);
    expect(journal.recordDecision(order.order_id, "refuse", "swap_id_mismatch", "x")).toBe(true);
    expect(journal.decisions(order.order_id).map((d) => d.reason)).toEqual([
      "swap_id_mismatch",
      "source_unconfirmed",
    ]);
  });

  it("reserves fills until they are signed and counts every open fill as in flight", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    const attempt = journal.recordSigned([action.id], signed("0x01"));
    // Signed: a live attempt, which the executor's balance already leaves out.
    expect(journal.plannedFillsByAsset().size).toBe(0);
    journal.markConfirmed(attempt.id, 10n);
    expect(journal.inFlightByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    journal.markOrderDone(order.order_id);
    expect(journal.inFlightByAsset().size).toBe(0);
  });

  it("keeps the fill sums only until a fill changes, by this process or another", () => {
    const { journal, path } = openJournal();
    journal.upsertOrder(order);
    claimOk(journal, fill);
    const sums = journal.plannedFillsByAsset();
    sums.set("arbitrum_localnet:usdc", 1n);
    // A caller's copy is its own: changing it changes nothing kept.
    expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    const other = openJournal(path).journal;
    const second = { ...makeOrder(), order_id: "dd".repeat(32) };
    other.upsertOrder(second);
    claimOk(other, {
      ...fill,
      orderId: second.order_id,
      params: { ...fill.params, swapId: "ee".repeat(32) },
    });
    expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(1980000n);
    journal.markOrderDone(order.order_id);
    expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
  });

  it("sums the fills again only after a write to an action, a new order or an order's active flag", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    const statement = Object.getPrototypeOf(journal.database.prepare("SELECT 1")) as Database.Statement;
    const all = vi.spyOn(statement, "all");
    const sumsRead = () =>
      all.mock.contexts.filter((context) => (context as Database.Statement).source.includes("json_extract"))
        .length;
    try {
      expect(journal.inFlightByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
      expect(sumsRead()).toBe(1);
      // The writes a round makes most: decisions and the service's view of an order.
      journal.recordDecision(order.order_id, "wait", "source_unconfirmed", "1 of 2 confirmations");
      journal.upsertOrder({ ...order, status: "InitiateDetected" });
      expect(journal.inFlightByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
      expect(sumsRead()).toBe(1);
      // A write that bypasses the journal's own methods still counts.
      journal.database.prepare("UPDATE actions SET status = 'failed' WHERE id = ?").run(action.id);
      expect(journal.inFlightByAsset().size).toBe(0);
      expect(sumsRead()).toBe(2);
      // A fill journaled before its order's row counts from the moment the row is written.
      const late = { ...makeOrder(), order_id: "ee".repeat(32) };
      journal.database
        .prepare(
          "INSERT INTO actions (order_id, kind, chain, request, status, created_ms, updated_ms) SELECT ?, kind, chain, request, 'planned', 0, 0 FROM actions WHERE id = ?",
        )
        .run(late.order_id, action.id);
      expect(journal.inFlightByAsset().size).toBe(0);
      journal.upsertOrder(late);
      expect(journal.inFlightByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    } finally {
      all.mockRestore();
    }
  });

  it("keeps no sums counted inside a transaction that is rolled back", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const rolledBack = journal.database.transaction(() => {
      claimOk(journal, fill);
      expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
      throw new Error("roll back");
    });
    expect(() => rolledBack()).toThrow("roll back");
    // A real claim moves the epoch to where the rolled-back one had: its sums must not be the ones kept.
    claimOk(journal, { ...fill, params: { ...fill.params, amount: 5n } });
    expect(journal.plannedFillsByAsset().get("arbitrum_localnet:usdc")).toBe(5n);
  });

  it("never lets a fill and an instant refund of one order both be claimed, in either order", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const instantRefund: ActionRequest = { ...fill, kind: "instant_refund" };
    claimOk(journal, instantRefund);
    expect(journal.claimAction(fill, Date.now(), ownSource(fill))).toMatchObject({
      ok: false,
      reason: "instant_refund_given",
    });

    const other = makeOrder();
    other.order_id = "ee".repeat(32);
    journal.upsertOrder(other);
    const otherFill = { ...fill, orderId: other.order_id };
    claimOk(journal, otherFill);
    const otherRefund = { ...otherFill, kind: "instant_refund" as const };
    expect(journal.claimAction(otherRefund, Date.now(), ownSource(otherRefund))).toMatchObject({
      ok: false,
      reason: "fill_exists",
    });
    expect(journal.orderActions(order.order_id).map((a) => a.kind)).toEqual(["instant_refund"]);
    expect(journal.orderActions(other.order_id).map((a) => a.kind)).toEqual(["fill"]);
  });

  it("lets one source back one order only, and freezes the terms the solver acted on", () => {
    const { journal } = openJournal();
    const second = makeOrder();
    second.order_id = "ee".repeat(32);
    journal.upsertOrder(order);
    journal.upsertOrder(second);
    const shared = ownSource(fill);
    claimOk(journal, fill, Date.now(), shared);
    const secondFill = { ...fill, orderId: second.order_id };
    expect(journal.claimAction(secondFill, Date.now(), shared)).toMatchObject({
      ok: false,
      reason: "source_backs_another_order",
    });
    expect(journal.sourceBackedBy({ ...shared.backing, swapId: shared.backing.swapId.toUpperCase() })).toBe(
      order.order_id,
    );
    expect(journal.orderTerms(order.order_id)).toEqual(shared.terms);
    expect(journal.orderTerms(second.order_id)).toBeNull();
    expect(() => journal.claimAction(secondFill)).toThrow(/must name the source/);
  });

  it("keeps every source lock a claim relied on, across builds, for that order only", () => {
    const { journal } = openJournal();
    const second = makeOrder();
    second.order_id = "ff".repeat(32);
    journal.upsertOrder(order);
    journal.upsertOrder(second);
    const source = ownSource(fill);
    expect(journal.sourceLockIds(order.order_id)).toEqual([]);
    claimOk(journal, fill, Date.now(), { ...source, lockIds: ["a:0", "b:1"] });
    // The same fill built again relies on another deposit too.
    claimOk(journal, fill, Date.now(), { ...source, lockIds: ["b:1", "c:2"] });
    expect(journal.sourceLockIds(order.order_id)).toEqual(["a:0", "b:1", "c:2"]);
    // Another order's claim on the same source is refused and adds nothing.
    const refused = journal.claimAction({ ...fill, orderId: second.order_id }, Date.now(), {
      ...source,
      lockIds: ["d:3"],
    });
    expect(refused).toMatchObject({ ok: false, reason: "source_backs_another_order" });
    expect(journal.sourceLockIds(order.order_id)).toEqual(["a:0", "b:1", "c:2"]);
    expect(journal.sourceLockIds(second.order_id)).toEqual([]);
  });

  it("names every transaction journaled for an action, whatever became of it", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    const first = journal.recordSigned([action.id], signed("0x01"));
    journal.recordSigned([action.id], signed("0x02"));
    journal.markAttemptFailed(first.id, "dropped", "replaced");
    expect(journal.actionTxids(order.order_id, "fill")).toEqual(["0x01", "0x02"]);
    expect(journal.actionTxids(order.order_id, "redeem")).toEqual([]);
  });

  it("finds a transaction by hash on its chain, live or ended, with the actions it carried", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = claimOk(journal, fill);
    const first = journal.recordSigned([action.id], signed("0x01"));
    journal.recordCancel([action.id], signed("0x02"));
    journal.markAttemptFailed(first.id, "dropped", "replaced");
    expect(journal.journaledTx("arbitrum_localnet", "0x01")).toEqual({
      raw: "0xraw0x01",
      state: "dropped",
      actions: [fill],
    });
    // A cancel carries the actions of the fill whose place it takes.
    expect(journal.journaledTx("arbitrum_localnet", "0x02")).toMatchObject({
      state: "signed",
      actions: [fill],
    });
    expect(journal.journaledTx("ethereum_localnet", "0x01")).toBeNull();
    expect(journal.journaledTx("arbitrum_localnet", "0x03")).toBeNull();
  });

  it("refuses a journal written by a newer solver", () => {
    const { journal, path } = openJournal();
    journal.close();
    const db = new Database(path);
    db.prepare("UPDATE schema_version SET version = 99").run();
    db.close();
    expect(() => new Journal(path)).toThrow(/newer than this solver knows/);
  });
});

describe("journal: one order's view", () => {
  it("is null for an order never seen, and shows in one read what a pass needs", () => {
    const { journal } = openJournal();
    const second = makeOrder();
    second.order_id = "ab".repeat(32);
    const source = { ...ownSource(fill), lockIds: ["a:0"] };
    let asked = 0;
    const backingOf = () => {
      asked++;
      return source.backing;
    };
    expect(journal.orderView(order.order_id, backingOf)).toBeNull();
    journal.upsertOrder(order, 1_000);
    journal.upsertOrder(second, 2_000);
    expect(journal.orderView(order.order_id, backingOf)).toMatchObject({
      snapshot: order,
      active: true,
      firstSeenMs: 1_000,
      terms: null,
      actions: [],
      fillTxids: [],
      sourceLockIds: [],
      sourceBacksOrder: null,
      lastDecision: null,
    });

    const { action } = claimOk(journal, fill, 3_000, source);
    journal.recordSigned([action.id], signed("0xf1"));
    journal.recordDecision(second.order_id, "wait", "source_unconfirmed", "1 of 3", 4_000);
    const view = journal.orderView(order.order_id, backingOf);
    expect(view).toMatchObject({ terms: source.terms, fillTxids: ["0xf1"], sourceLockIds: ["a:0"] });
    expect(view?.actions.map((a) => [a.kind, a.status])).toEqual([["fill", "signed"]]);
    // The source backs this order's own fill: no other order's.
    expect(view?.sourceBacksOrder).toBeNull();
    const secondView = journal.orderView(second.order_id, backingOf);
    expect(secondView?.sourceBacksOrder).toBe(order.order_id);
    expect(secondView?.lastDecision).toMatchObject({ outcome: "wait", reason: "source_unconfirmed" });
    journal.markOrderDone(order.order_id);
    expect(journal.orderView(order.order_id, backingOf)?.active).toBe(false);
    expect(asked).toBe(4);
  });
});
