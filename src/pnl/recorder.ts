/**
 * Journals an order's profit and loss once it is settled: its legs from the journal's actions and
 * attempts (settlement.ts), each valued at the USD price of the moment. Called by the runner when it
 * stops following an order; never throws, since a valuation problem must not stop the solver.
 */
import type { Logger } from "pino";
import type { Journal } from "../journal/journal.js";
import type { PnlLeg, PnlSettlement, PnlStore } from "../journal/pnl-store.js";
import type { Valuation } from "../pricing/pricing.js";
import type { PnlMetrics } from "./pnl-metrics.js";
import { addSettlement, emptySummary, legUsd, pairOf } from "./report.js";
import { settlementLegs, type FeeAsset, type SettlementAttempt } from "./settlement.js";
import { exactUsd, usdToNumber } from "./usd.js";

export interface PnlRecorderOptions {
  journal: Pick<Journal, "orderActions" | "attemptsOfAction" | "orderSnapshot">;
  store: PnlStore;
  /** Decimals of a configured asset id. */
  decimalsOf(assetId: string): number;
  feeAssetOf(chain: string): FeeAsset;
  valuation(assetId: string): Promise<Valuation | null>;
  metrics?: PnlMetrics;
  logger: Logger;
  now?: () => number;
}

export class PnlRecorder {
  constructor(private readonly options: PnlRecorderOptions) {}

  /** Computes, values and stores the order's result; a second call for the same order does nothing. */
  async recordSettlement(orderId: string): Promise<void> {
    const { logger } = this.options;
    try {
      const settlement = await this.settle(orderId);
      if (settlement === null || !this.options.store.recordSettlement(settlement)) return;
      this.observe(settlement);
    } catch (error) {
      logger.error({ err: error, orderId }, "could not journal the order's profit and loss");
    }
  }

  private attemptsOf(actionIds: readonly number[]): SettlementAttempt[] {
    const { journal, store } = this.options;
    const byId = new Map<number, { id: number; chain: string; actionIds: number[] }>();
    for (const actionId of actionIds) {
      for (const attempt of journal.attemptsOfAction(actionId)) byId.set(attempt.id, attempt);
    }
    const fees = store.feesPaid([...byId.keys()]);
    return [...byId.values()].map((a) => ({
      id: a.id,
      chain: a.chain,
      actionIds: a.actionIds,
      feePaid: fees.get(a.id) ?? null,
    }));
  }

  private async settle(orderId: string): Promise<PnlSettlement | null> {
    const { journal, store } = this.options;
    if (store.hasSettlement(orderId)) return null;
    const order = journal.orderSnapshot(orderId);
    if (order === null) return null;
    const actions = journal.orderActions(orderId).map((row) => ({
      id: row.id,
      kind: row.kind,
      confirmed: row.status === "confirmed",
      asset: row.request.params.asset,
      amount: row.request.params.amount,
    }));
    const unpriced = settlementLegs(
      actions,
      this.attemptsOf(actions.map((a) => a.id)),
      (asset) => this.options.decimalsOf(asset),
      (chain) => this.options.feeAssetOf(chain),
    );
    // An order the solver never acted on (refused, or only handed an instant refund) has no result.
    if (unpriced.length === 0) return null;
    const prices = new Map<string, Valuation | null>();
    for (const leg of unpriced) {
      if (!prices.has(leg.asset)) prices.set(leg.asset, await this.options.valuation(leg.asset));
    }
    const legs: PnlLeg[] = unpriced.map((leg) => {
      const price = prices.get(leg.asset) ?? null;
      return { ...leg, usdPrice: price?.price ?? null, pricedMs: price?.atMs ?? null };
    });
    return {
      orderId,
      fromAsset: order.source_swap.asset,
      toAsset: order.destination_swap.asset,
      settledMs: (this.options.now ?? Date.now)(),
      legs,
    };
  }

  private observe(settlement: PnlSettlement): void {
    const { metrics, logger } = this.options;
    const pair = pairOf(settlement);
    const summary = addSettlement(emptySummary(), settlement);
    logger.info(
      {
        orderId: settlement.orderId,
        pair,
        pnlUsd: exactUsd(summary.pnl),
        feesUsd: exactUsd(summary.fees),
        unpricedLegs: summary.unpricedLegs,
      },
      "order settled; profit and loss journaled",
    );
    if (summary.unpricedLegs > 0) {
      logger.warn(
        { orderId: settlement.orderId },
        "some legs of the order had no USD price; pnl leaves them out",
      );
    }
    if (metrics === undefined) return;
    metrics.settled.inc({ pair });
    metrics.volume.inc({ pair }, Math.max(0, usdToNumber(summary.received)));
    const pnl = usdToNumber(summary.pnl);
    if (pnl >= 0) metrics.gain.inc({ pair }, pnl);
    else metrics.loss.inc({ pair }, -pnl);
    for (const leg of settlement.legs) {
      const value = leg.kind === "network_fee" ? legUsd(leg) : null;
      if (value !== null) metrics.feesPaid.inc({ chain: leg.asset.split(":")[0] ?? "" }, -usdToNumber(value));
    }
  }
}
