/**
 * Every query a solver round makes of the journal finds its rows through an index: with thousands of
 * orders behind it, a table scan per order per round is what makes a round slow. Each statement the
 * round's calls prepare is explained with `EXPLAIN QUERY PLAN` and must not scan a table.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest, SignedTx } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { claimOk } from "../../support/journal-claims.js";
import { evmTerms } from "../../support/memory-journal.js";
import { makeOrder } from "../../support/order-fixture.js";

const opened: Journal[] = [];

afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

function openJournal(): Journal {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "journal-plans-")), "j.sqlite"));
  opened.push(journal);
  return journal;
}

/** Records the SQL of every statement the journal prepares while `work` runs. */
function preparedDuring(journal: Journal, work: () => void): string[] {
  const db = journal.database;
  const original = db.prepare.bind(db);
  const seen = new Set<string>();
  db.prepare = ((sql: string) => {
    seen.add(sql);
    return original(sql);
  }) as typeof db.prepare;
  try {
    work();
  } finally {
    db.prepare = original;
  }
  return [...seen];
}

/** The plan's steps that read a whole table (SCAN without an index). */
function tableScans(journal: Journal, sql: string): string[] {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  const plan = journal.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  // "SCAN CONSTANT ROW" is a SELECT of no table (total_changes()): nothing to index.
  return plan
    .map((step) => step.detail)
    .filter((detail) => /^SCAN /.test(detail) && !/INDEX|CONSTANT ROW/.test(detail));
}

const redeem = (orderId: string): ActionRequest => ({
  kind: "redeem",
  orderId,
  params: {
    chain: "arbitrum_localnet",
    asset: "arbitrum_localnet:usdc",
    swapId: orderId.slice(0, 64).padEnd(64, "0"),
    initiator: "0xa1",
    redeemer: "0xb2",
    secretHash: "cd".repeat(32),
    timelock: 600n,
    amount: 990000n,
  },
  secret: "ef".repeat(32),
});

const signed = (hash: string): SignedTx => ({
  chain: "arbitrum_localnet",
  txHash: hash,
  raw: `0xraw${hash}`,
  nonce: 1n,
  terms: evmTerms(),
});

describe("journal query plans", () => {
  it("reads every row a round needs through an index", () => {
    const journal = openJournal();
    const order = makeOrder();
    const statements = preparedDuring(journal, () => {
      journal.upsertOrder(order);
      journal.isKnownOrder(order.order_id);
      journal.orderSnapshot(order.order_id);
      journal.activeOrderIds();
      journal.orderTerms(order.order_id);
      journal.orderActions(order.order_id);
      journal.actionTxids(order.order_id, "fill");
      journal.lastDecision(order.order_id);
      const fill = { ...redeem(order.order_id), kind: "fill" as const };
      claimOk(journal, fill);
      journal.sourceBackedBy({ chain: "source_chain", swapId: `source-of-${order.order_id}` });
      const { action } = claimOk(journal, redeem(order.order_id));
      const attempt = journal.recordSigned([action.id], signed("0x01"));
      journal.markBroadcast(attempt.id);
      journal.liveAttempts("arbitrum_localnet");
      journal.liveAttemptRows();
      journal.attemptsOfAction(action.id);
      journal.journaledTx("arbitrum_localnet", attempt.txHash);
      journal.markMined(attempt.id, 10n);
      journal.markConfirmed(attempt.id, 10n);
      journal.plannedFillsByAsset();
      journal.inFlightByAsset();
      journal.markOrderDone(order.order_id);
      journal.isOrderDone(order.order_id);
    });
    expect(statements.length).toBeGreaterThan(15);
    const scans = statements.flatMap((sql) => tableScans(journal, sql).map((scan) => `${scan} in: ${sql}`));
    expect(scans).toEqual([]);
  });

  it("writes an order's row only when the service's view of it changed", () => {
    const journal = openJournal();
    const order = makeOrder();
    expect(journal.upsertOrder(order, 1_000)).toBe(true);
    expect(journal.upsertOrder(order, 2_000)).toBe(false);
    expect(journal.orderRow(order.order_id)?.lastSeenMs).toBe(1_000);
    const moved = { ...order, status: "Redeemed" };
    expect(journal.upsertOrder(moved, 3_000)).toBe(true);
    expect(journal.orderRow(order.order_id)).toMatchObject({ lastSeenMs: 3_000, snapshot: moved });
  });
});
