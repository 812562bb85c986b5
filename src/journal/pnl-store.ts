/**
 * Profit and loss in the journal's database (tables of the second migration): the fee each mined
 * transaction attempt paid, and each settled order's legs with the USD prices they were valued at.
 * Amounts and prices are stored as decimal text, exactly as computed.
 */
import type Database from "better-sqlite3";
import type { Journal } from "./journal.js";

export type LegKind = "source_received" | "destination_given" | "destination_refunded" | "network_fee";

export interface PnlLeg {
  kind: LegKind;
  asset: string;
  decimals: number;
  /** Smallest units, signed: positive received, negative given or paid. */
  amount: bigint;
  /** USD per whole unit the leg was valued at; null when no price was known. */
  usdPrice: string | null;
  /** When that price was usable for quotes. */
  pricedMs: number | null;
  /** The transaction attempt that paid a fee. */
  attemptId: number | null;
}

export interface PnlSettlement {
  orderId: string;
  fromAsset: string;
  toAsset: string;
  settledMs: number;
  legs: PnlLeg[];
}

interface RawSettlement {
  order_id: string;
  from_asset: string;
  to_asset: string;
  settled_ms: number;
}

interface RawLeg {
  order_id: string;
  kind: LegKind;
  asset: string;
  decimals: number;
  amount: string;
  usd_price: string | null;
  priced_ms: number | null;
  attempt_id: number | null;
}

/** Records the fee a mined attempt paid. Idempotent: following the same attempt twice records it once. */
export function recordFeePaid(
  journal: Pick<Journal, "database">,
  attemptId: number,
  feePaid: bigint,
  nowMs = Date.now(),
): void {
  journal.database
    .prepare(
      `INSERT INTO fees_paid (attempt_id, fee_paid, recorded_ms) VALUES (?, ?, ?)
       ON CONFLICT (attempt_id) DO UPDATE SET fee_paid = excluded.fee_paid`,
    )
    .run(attemptId, feePaid.toString(), nowMs);
}

export class PnlStore {
  constructor(private readonly db: Database.Database) {}

  /** Fees paid by these attempts; attempts without a record (not mined, or never known) are absent. */
  feesPaid(attemptIds: readonly number[]): Map<number, bigint> {
    const fees = new Map<number, bigint>();
    const select = this.db.prepare("SELECT fee_paid FROM fees_paid WHERE attempt_id = ?");
    for (const id of attemptIds) {
      const row = select.get(id) as { fee_paid: string } | undefined;
      if (row !== undefined) fees.set(id, BigInt(row.fee_paid));
    }
    return fees;
  }

  hasSettlement(orderId: string): boolean {
    return this.db.prepare("SELECT 1 FROM pnl_settlements WHERE order_id = ?").get(orderId) !== undefined;
  }

  /** Stores an order's settlement once; returns false when it was already stored. */
  recordSettlement(settlement: PnlSettlement): boolean {
    const insert = this.db.transaction(() => {
      const result = this.db
        .prepare(
          `INSERT INTO pnl_settlements (order_id, from_asset, to_asset, settled_ms) VALUES (?, ?, ?, ?)
           ON CONFLICT (order_id) DO NOTHING`,
        )
        .run(settlement.orderId, settlement.fromAsset, settlement.toAsset, settlement.settledMs);
      if (result.changes === 0) return false;
      const leg = this.db.prepare(
        `INSERT INTO pnl_legs (order_id, kind, asset, decimals, amount, usd_price, priced_ms, attempt_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const l of settlement.legs) {
        leg.run(
          settlement.orderId,
          l.kind,
          l.asset,
          l.decimals,
          l.amount.toString(),
          l.usdPrice,
          l.pricedMs,
          l.attemptId,
        );
      }
      return true;
    });
    return insert();
  }

  /** Settlements in time order, optionally from `sinceMs` on, each with its legs. */
  settlements(sinceMs = 0): PnlSettlement[] {
    const rows = this.db
      .prepare("SELECT * FROM pnl_settlements WHERE settled_ms >= ? ORDER BY settled_ms, order_id")
      .all(sinceMs) as RawSettlement[];
    const legs = this.db
      .prepare(
        `SELECT l.* FROM pnl_legs l JOIN pnl_settlements s ON s.order_id = l.order_id
         WHERE s.settled_ms >= ? ORDER BY l.id`,
      )
      .all(sinceMs) as RawLeg[];
    const byOrder = new Map<string, PnlLeg[]>();
    for (const raw of legs) {
      const list = byOrder.get(raw.order_id) ?? [];
      list.push({
        kind: raw.kind,
        asset: raw.asset,
        decimals: raw.decimals,
        amount: BigInt(raw.amount),
        usdPrice: raw.usd_price,
        pricedMs: raw.priced_ms,
        attemptId: raw.attempt_id,
      });
      byOrder.set(raw.order_id, list);
    }
    return rows.map((row) => ({
      orderId: row.order_id,
      fromAsset: row.from_asset,
      toAsset: row.to_asset,
      settledMs: row.settled_ms,
      legs: byOrder.get(row.order_id) ?? [],
    }));
  }
}
