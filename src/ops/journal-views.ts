/**
 * What the operator sees of the journal (GET /status and `solver status | orders | journal`): plain,
 * JSON-safe views. Secrets never appear: redeem requests keep their secret out of every view, order
 * snapshots show only the secret hash, and a secret that slipped into an error text is masked.
 */
import type { ActionRow, AttemptRow, DecisionRow, Journal, OrderRow } from "../journal/journal.js";
import type { Order, SwapRecord } from "../orderbook/types.js";
import type { TxTerms } from "../chains/registry.js";

/** The journal queries the views read. */
export type JournalReader = Pick<
  Journal,
  | "recentOrders"
  | "orderRow"
  | "activeOrderIds"
  | "orderSnapshot"
  | "orderActions"
  | "attemptsOfAction"
  | "lastDecision"
  | "decisions"
  | "recentActions"
  | "recentAttempts"
>;

export const SECRET_MASK = "[secret]";

export interface ActionView {
  id: number;
  orderId: string;
  kind: string;
  chain: string;
  status: string;
  tries: number;
  /** Hash of the newest transaction attempt; null before anything was signed. */
  txHash: string | null;
  lastError: string | null;
  updatedAt: string;
}

export interface AttemptView {
  id: number;
  chain: string;
  txHash: string;
  nonce: string | null;
  state: string;
  /** The family's terms of the transaction (fee terms, ...), every number as exact text. */
  terms: Record<string, string>;
  actionIds: number[];
  createdAt: string;
  updatedAt: string;
}

export interface DecisionView {
  id: number;
  orderId: string;
  outcome: string;
  reason: string;
  detail: string;
  at: string;
}

export interface SideView {
  chain: string;
  asset: string;
  amount: string;
  swapId: string;
  initiateTx: string;
  redeemTx: string;
  refundTx: string;
}

export interface OrderView {
  orderId: string;
  /** The status the service last showed. */
  status: string;
  /** Still followed by the solver. */
  active: boolean;
  source: SideView;
  destination: SideView;
  firstSeenAt: string;
  lastSeenAt: string;
  actions: ActionView[];
  lastDecision: DecisionView | null;
}

export interface OrderDetailView extends OrderView {
  /** sha256 of the secret; the secret itself is never shown. */
  secretHash: string;
  decisions: DecisionView[];
  attempts: AttemptView[];
}

export interface StatusView {
  activeOrders: OrderView[];
  recentActions: ActionView[];
  recentDecisions: DecisionView[];
}

export interface JournalLogView {
  actions: ActionView[];
  attempts: AttemptView[];
  decisions: DecisionView[];
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Masks every known secret (with or without 0x) inside a text. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    const hex = secret.replace(/^0x/i, "");
    if (hex.length < 16) continue;
    masked = masked.replace(new RegExp(`(?:0x)?${hex}`, "gi"), SECRET_MASK);
  }
  return masked;
}

function orderSecrets(order: Order | null): string[] {
  if (order === null) return [];
  return [order.source_swap.secret, order.destination_swap.secret].filter((s) => s !== "");
}

function actionSecrets(journal: JournalReader, action: ActionRow): string[] {
  const own = action.request.secret === undefined ? [] : [action.request.secret];
  return [...own, ...orderSecrets(journal.orderSnapshot(action.orderId))];
}

export function actionView(journal: JournalReader, action: ActionRow): ActionView {
  const attempts = journal.attemptsOfAction(action.id);
  const error = action.lastError;
  return {
    id: action.id,
    orderId: action.orderId,
    kind: action.kind,
    chain: action.chain,
    status: action.status,
    tries: action.tries,
    txHash: attempts.at(-1)?.txHash ?? null,
    lastError: error === null ? null : maskSecrets(error, actionSecrets(journal, action)),
    updatedAt: iso(action.updatedMs),
  };
}

function termsView(terms: TxTerms): Record<string, string> {
  const view: Record<string, string> = {};
  for (const [key, value] of Object.entries(terms)) {
    if (Array.isArray(value)) view[key] = value.join(",");
    // Nested terms (an instant refund's signatures) are shown by what they are, not their bytes.
    else if (typeof value === "object" && value !== null) view[key] = Object.keys(value).join(",");
    else view[key] = String(value);
  }
  return view;
}

export function attemptView(attempt: AttemptRow): AttemptView {
  return {
    id: attempt.id,
    chain: attempt.chain,
    txHash: attempt.txHash,
    nonce: attempt.nonce === null ? null : attempt.nonce.toString(),
    state: attempt.state,
    terms: termsView(attempt.terms),
    actionIds: attempt.actionIds,
    createdAt: iso(attempt.createdAtMs),
    updatedAt: iso(attempt.updatedMs),
  };
}

export function decisionView(journal: JournalReader, decision: DecisionRow): DecisionView {
  return {
    id: decision.id,
    orderId: decision.orderId,
    outcome: decision.outcome,
    reason: decision.reason,
    detail: maskSecrets(decision.detail, orderSecrets(journal.orderSnapshot(decision.orderId))),
    at: iso(decision.atMs),
  };
}

function sideView(swap: SwapRecord): SideView {
  return {
    chain: swap.chain,
    asset: swap.asset,
    amount: swap.amount,
    swapId: swap.swap_id,
    initiateTx: swap.initiate_tx_hash,
    redeemTx: swap.redeem_tx_hash,
    refundTx: swap.refund_tx_hash,
  };
}

export function orderView(journal: JournalReader, row: OrderRow): OrderView {
  const last = journal.lastDecision(row.orderId);
  return {
    orderId: row.orderId,
    status: row.snapshot.status,
    active: row.active,
    source: sideView(row.snapshot.source_swap),
    destination: sideView(row.snapshot.destination_swap),
    firstSeenAt: iso(row.firstSeenMs),
    lastSeenAt: iso(row.lastSeenMs),
    actions: journal.orderActions(row.orderId).map((a) => actionView(journal, a)),
    lastDecision: last === null ? null : decisionView(journal, last),
  };
}

export function listOrders(journal: JournalReader, limit: number): OrderView[] {
  return journal.recentOrders(limit).map((row) => orderView(journal, row));
}

export function orderDetail(journal: JournalReader, orderId: string): OrderDetailView | null {
  const row = journal.orderRow(orderId);
  if (row === null) return null;
  const base = orderView(journal, row);
  const attempts = journal
    .orderActions(orderId)
    .flatMap((action) => journal.attemptsOfAction(action.id))
    .sort((a, b) => a.id - b.id);
  return {
    ...base,
    secretHash: row.snapshot.source_swap.secret_hash,
    decisions: journal
      .decisions(orderId)
      .reverse()
      .map((d) => decisionView(journal, d)),
    attempts: attempts.map(attemptView),
  };
}

export function statusView(journal: JournalReader, recentLimit = 10): StatusView {
  return {
    activeOrders: journal
      .activeOrderIds()
      .flatMap((id) => journal.orderRow(id) ?? [])
      .sort((a, b) => b.lastSeenMs - a.lastSeenMs || a.orderId.localeCompare(b.orderId))
      .map((row) => orderView(journal, row)),
    recentActions: journal.recentActions(recentLimit).map((a) => actionView(journal, a)),
    recentDecisions: journal.decisions(undefined, recentLimit).map((d) => decisionView(journal, d)),
  };
}

export function journalLog(journal: JournalReader, limit: number): JournalLogView {
  return {
    actions: journal.recentActions(limit).map((a) => actionView(journal, a)),
    attempts: journal.recentAttempts(limit).map(attemptView),
    decisions: journal.decisions(undefined, limit).map((d) => decisionView(journal, d)),
  };
}
