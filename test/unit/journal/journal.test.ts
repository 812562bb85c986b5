import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest, SignedTx } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { makeOrder } from "../../support/order-fixture.js";

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
    fee: { maxFeePerGas: "1" },
    spends: [],
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
    expect(journal.claimAction(fill).created).toBe(true);
    const again = journal.claimAction(fill);
    expect(again.created).toBe(false);
    expect(journal.orderActions(order.order_id)).toHaveLength(1);
    expect(again.action.request.params.amount).toBe(990000n);
  });

  it("keeps a signed transaction across a restart so it is re-broadcast, not rebuilt", () => {
    const { journal, path } = openJournal();
    journal.upsertOrder(order);
    const { action } = journal.claimAction(fill);
    journal.recordSigned([action.id], signed("0x01"));
    journal.close();

    const { journal: reopened } = openJournal(path);
    const live = reopened.liveAttempts("arbitrum_localnet");
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ txHash: "0x01", raw: "0xraw0x01", nonce: 7n });
    expect(reopened.action(action.id).status).toBe("signed");
    expect(reopened.claimAction(fill).created).toBe(false);
  });

  it("confirms an action through any of its attempts and drops the others", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = journal.claimAction(fill);
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
    const { action } = journal.claimAction(fill);
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

  it("reserves unmined fills and counts every open fill as in flight", () => {
    const { journal } = openJournal();
    journal.upsertOrder(order);
    const { action } = journal.claimAction(fill);
    expect(journal.reservedByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    const attempt = journal.recordSigned([action.id], signed("0x01"));
    journal.markConfirmed(attempt.id, 10n);
    // Mined: the balance already shows it, so it is no longer reserved, but it is still at stake.
    expect(journal.reservedByAsset().size).toBe(0);
    expect(journal.inFlightByAsset().get("arbitrum_localnet:usdc")).toBe(990000n);
    journal.markOrderDone(order.order_id);
    expect(journal.inFlightByAsset().size).toBe(0);
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
