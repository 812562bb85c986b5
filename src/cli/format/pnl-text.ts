/** `solver pnl` as tables for people: USD rounded to the cent (the JSON form is exact). */
import type { PnlView, SummaryView } from "../../pnl/pnl-view.js";
import { centsUsd, parseUsd } from "../../pnl/usd.js";
import { renderTable, shortTime } from "./table.js";

const cents = (exact: string): string => centsUsd(parseUsd(exact));

const HEADERS = ["ORDERS", "RECEIVED", "GIVEN", "FEES", "PNL", "UNPRICED"];

function cells(summary: SummaryView): string[] {
  return [
    String(summary.orders),
    cents(summary.receivedUsd),
    cents(summary.givenUsd),
    cents(summary.feesUsd),
    cents(summary.pnlUsd),
    String(summary.unpricedLegs),
  ];
}

export function formatPnl(view: PnlView): string {
  if (view.total.orders === 0) return "No settled orders in the journal yet.";
  const sections = [
    `By day (UTC), USD:\n${renderTable(
      ["DAY", ...HEADERS],
      view.byDay.map((d) => [d.day, ...cells(d)]),
    )}`,
    `By pair, USD:\n${renderTable(
      ["PAIR", ...HEADERS],
      view.byPair.map((p) => [p.pair, ...cells(p)]),
    )}`,
    `Total, USD:\n${renderTable(HEADERS, [cells(view.total)])}`,
  ];
  if (view.orders !== undefined) {
    const rows = view.orders.map((o) => [o.orderId, o.pair, shortTime(o.settledAt), cents(o.pnlUsd)]);
    sections.push(`Orders, USD:\n${renderTable(["ORDER", "PAIR", "SETTLED", "PNL"], rows)}`);
  }
  sections.push(
    "RECEIVED: source value redeemed; GIVEN: destination value filled, less refunds; FEES: network fees paid.\n" +
      "Each leg is valued at the USD price journaled when the order settled; values are rounded to the cent here, exact with --json.",
  );
  return sections.join("\n\n");
}
