/** The journal views (src/ops/journal-views.ts) as text for people. */
import type {
  ActionView,
  AttemptView,
  DecisionView,
  JournalLogView,
  OrderDetailView,
  OrderView,
  SideView,
  StatusView,
} from "../../ops/journal-views.js";
import { NONE, orNone, renderTable, shortTime } from "./table.js";

function indent(text: string, by = "  "): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : by + line))
    .join("\n");
}

function side(view: SideView): string {
  return `${view.amount} ${view.asset}`;
}

function decisionLine(decision: DecisionView | null): string {
  if (decision === null) return NONE;
  return `${decision.outcome} ${decision.reason} (${shortTime(decision.at)}): ${decision.detail}`;
}

function actionsSummary(actions: readonly ActionView[]): string {
  return actions.length === 0 ? NONE : actions.map((a) => `${a.kind}:${a.status}`).join(" ");
}

export function actionsTable(actions: readonly ActionView[], withOrder = false): string {
  const headers = [
    "ID",
    ...(withOrder ? ["ORDER"] : []),
    "KIND",
    "CHAIN",
    "STATUS",
    "TRIES",
    "TX",
    "UPDATED",
  ];
  const rows = actions.map((a) => [
    String(a.id),
    ...(withOrder ? [a.orderId] : []),
    a.kind,
    a.chain,
    a.lastError === null ? a.status : `${a.status} (${a.lastError})`,
    String(a.tries),
    orNone(a.txHash),
    shortTime(a.updatedAt),
  ]);
  return renderTable(headers, rows);
}

export function attemptsTable(attempts: readonly AttemptView[]): string {
  const rows = attempts.map((a) => [
    String(a.id),
    a.chain,
    a.state,
    orNone(a.nonce),
    a.txHash,
    a.actionIds.join(","),
    shortTime(a.createdAt),
  ]);
  return renderTable(["ID", "CHAIN", "STATE", "NONCE", "TX", "ACTIONS", "CREATED"], rows);
}

export function decisionsTable(decisions: readonly DecisionView[], withOrder = false): string {
  const headers = ["AT", ...(withOrder ? ["ORDER"] : []), "OUTCOME", "REASON", "DETAIL"];
  const rows = decisions.map((d) => [
    shortTime(d.at),
    ...(withOrder ? [d.orderId] : []),
    d.outcome,
    d.reason,
    d.detail,
  ]);
  return renderTable(headers, rows);
}

function section(title: string, count: number, body: string): string {
  return count === 0 ? `${title}: none` : `${title}:\n${indent(body)}`;
}

function activeOrderBlock(order: OrderView): string {
  const lines = [
    `order ${order.orderId}  ${order.status}  last seen ${shortTime(order.lastSeenAt)}`,
    `  ${side(order.source)} -> ${side(order.destination)}`,
  ];
  if (order.actions.length > 0) lines.push(indent(actionsTable(order.actions), "  "));
  else lines.push("  no actions yet");
  lines.push(`  last decision: ${decisionLine(order.lastDecision)}`);
  return lines.join("\n");
}

export function formatStatus(view: StatusView): string {
  if (view.activeOrders.length === 0) return "Active orders: none";
  return [`Active orders: ${view.activeOrders.length}`, ...view.activeOrders.map(activeOrderBlock)].join(
    "\n\n",
  );
}

export function formatOrders(orders: readonly OrderView[]): string {
  if (orders.length === 0) return "No orders in the journal.";
  const rows = orders.map((o) => [
    o.orderId,
    o.status,
    o.active ? "yes" : "no",
    `${side(o.source)} -> ${side(o.destination)}`,
    actionsSummary(o.actions),
    o.lastDecision === null ? NONE : `${o.lastDecision.outcome}:${o.lastDecision.reason}`,
    shortTime(o.lastSeenAt),
  ]);
  return renderTable(["ORDER", "STATUS", "FOLLOWED", "SWAP", "ACTIONS", "DECISION", "LAST SEEN"], rows);
}

function sideBlock(label: string, view: SideView): string[] {
  return [
    `${label.padEnd(12)}${side(view)} on ${view.chain}, swap ${orNone(view.swapId)}`,
    `${"".padEnd(12)}initiate ${orNone(view.initiateTx)}  redeem ${orNone(view.redeemTx)}  refund ${orNone(view.refundTx)}`,
  ];
}

export function formatOrderDetail(order: OrderDetailView): string {
  const head = [
    `order ${order.orderId}`,
    indent(
      [
        `${"status".padEnd(12)}${order.status} (${order.active ? "followed" : "settled, no longer followed"})`,
        `${"secret hash".padEnd(12)}${orNone(order.secretHash)}`,
        ...sideBlock("source", order.source),
        ...sideBlock("destination", order.destination),
        `${"first seen".padEnd(12)}${shortTime(order.firstSeenAt)}`,
        `${"last seen".padEnd(12)}${shortTime(order.lastSeenAt)}`,
      ].join("\n"),
    ),
  ].join("\n");
  return [
    head,
    section("actions", order.actions.length, actionsTable(order.actions)),
    section("attempts", order.attempts.length, attemptsTable(order.attempts)),
    section("decisions", order.decisions.length, decisionsTable(order.decisions)),
  ].join("\n\n");
}

export function formatJournal(view: JournalLogView): string {
  return [
    section("recent actions", view.actions.length, actionsTable(view.actions, true)),
    section("recent transaction attempts", view.attempts.length, attemptsTable(view.attempts)),
    section("recent decisions", view.decisions.length, decisionsTable(view.decisions, true)),
  ].join("\n\n");
}
