/**
 * Settlements summed per day (UTC), per pair and in total. Each leg is valued exactly at the price it was
 * journaled with; a leg without a price is counted apart and left out of the sums.
 */
import type { PnlLeg, PnlSettlement } from "../journal/pnl-store.js";
import { addUsd, usdValue, ZERO_USD, type Usd } from "./usd.js";

export interface PnlSummary {
  orders: number;
  /** Source value the solver received (its redeems). */
  received: Usd;
  /** Destination value given (fills), less what refunds brought back: a negative amount. */
  given: Usd;
  /** Network fees paid: a negative amount. */
  fees: Usd;
  /** received + given + fees. */
  pnl: Usd;
  /** Legs that had no price and are not in the sums. */
  unpricedLegs: number;
}

export interface PnlReport {
  byDay: { day: string; summary: PnlSummary }[];
  byPair: { pair: string; summary: PnlSummary }[];
  total: PnlSummary;
}

export function emptySummary(): PnlSummary {
  return { orders: 0, received: ZERO_USD, given: ZERO_USD, fees: ZERO_USD, pnl: ZERO_USD, unpricedLegs: 0 };
}

export function legUsd(leg: PnlLeg): Usd | null {
  return leg.usdPrice === null ? null : usdValue(leg.amount, leg.decimals, leg.usdPrice);
}

export function pairOf(settlement: Pick<PnlSettlement, "fromAsset" | "toAsset">): string {
  return `${settlement.fromAsset} -> ${settlement.toAsset}`;
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addSettlement(summary: PnlSummary, settlement: PnlSettlement): PnlSummary {
  const next = { ...summary, orders: summary.orders + 1 };
  for (const leg of settlement.legs) {
    const value = legUsd(leg);
    if (value === null) {
      next.unpricedLegs += 1;
      continue;
    }
    if (leg.kind === "source_received") next.received = addUsd(next.received, value);
    else if (leg.kind === "network_fee") next.fees = addUsd(next.fees, value);
    else next.given = addUsd(next.given, value);
    next.pnl = addUsd(next.pnl, value);
  }
  return next;
}

function grouped(settlements: readonly PnlSettlement[], key: (s: PnlSettlement) => string) {
  const groups = new Map<string, PnlSummary>();
  for (const settlement of settlements) {
    const k = key(settlement);
    groups.set(k, addSettlement(groups.get(k) ?? emptySummary(), settlement));
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export function pnlReport(settlements: readonly PnlSettlement[]): PnlReport {
  return {
    byDay: grouped(settlements, (s) => dayOf(s.settledMs)).map(([day, summary]) => ({ day, summary })),
    byPair: grouped(settlements, pairOf).map(([pair, summary]) => ({ pair, summary })),
    total: settlements.reduce(addSettlement, emptySummary()),
  };
}
