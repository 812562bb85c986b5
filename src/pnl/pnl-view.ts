/** The profit-and-loss report as plain data for `solver pnl --json`: exact USD values as decimal strings. */
import type { PnlSettlement } from "../journal/pnl-store.js";
import { addSettlement, emptySummary, legUsd, pairOf, pnlReport, type PnlSummary } from "./report.js";
import { exactUsd } from "./usd.js";

export const PNL_PRECISION =
  "USD values are exact: each leg is its amount times the USD price journaled with it. Tables round them to the cent, half away from zero.";

export interface SummaryView {
  orders: number;
  receivedUsd: string;
  givenUsd: string;
  feesUsd: string;
  pnlUsd: string;
  unpricedLegs: number;
}

export interface LegView {
  kind: string;
  asset: string;
  /** Signed smallest units. */
  amount: string;
  usdPrice: string | null;
  usd: string | null;
}

export interface OrderPnlView {
  orderId: string;
  pair: string;
  settledAt: string;
  pnlUsd: string;
  legs: LegView[];
}

export interface PnlView {
  precision: string;
  total: SummaryView;
  byDay: (SummaryView & { day: string })[];
  byPair: (SummaryView & { pair: string })[];
  orders?: OrderPnlView[];
}

export function summaryView(summary: PnlSummary): SummaryView {
  return {
    orders: summary.orders,
    receivedUsd: exactUsd(summary.received),
    givenUsd: exactUsd(summary.given),
    feesUsd: exactUsd(summary.fees),
    pnlUsd: exactUsd(summary.pnl),
    unpricedLegs: summary.unpricedLegs,
  };
}

export function orderView(settlement: PnlSettlement): OrderPnlView {
  return {
    orderId: settlement.orderId,
    pair: pairOf(settlement),
    settledAt: new Date(settlement.settledMs).toISOString(),
    pnlUsd: exactUsd(addSettlement(emptySummary(), settlement).pnl),
    legs: settlement.legs.map((leg) => {
      const usd = legUsd(leg);
      return {
        kind: leg.kind,
        asset: leg.asset,
        amount: leg.amount.toString(),
        usdPrice: leg.usdPrice,
        usd: usd === null ? null : exactUsd(usd),
      };
    }),
  };
}

export function pnlView(settlements: readonly PnlSettlement[], withOrders: boolean): PnlView {
  const report = pnlReport(settlements);
  return {
    precision: PNL_PRECISION,
    total: summaryView(report.total),
    byDay: report.byDay.map(({ day, summary }) => ({ day, ...summaryView(summary) })),
    byPair: report.byPair.map(({ pair, summary }) => ({ pair, ...summaryView(summary) })),
    ...(withOrders ? { orders: settlements.map(orderView) } : {}),
  };
}
