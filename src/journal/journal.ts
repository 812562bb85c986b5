import Database from "better-sqlite3";
import type {
  ActionKind,
  ActionRequest,
  AttemptState,
  JournaledTx,
  JournalView,
  SignedTx,
  TxAttemptRef,
} from "../chains/chain.js";
import type { FollowPositions, FollowPositionsSource } from "../chains/follow-positions.js";
import type { Order } from "../orderbook/types.js";
import {
  checkExclusive,
  commitSource,
  EXCLUDES,
  noteSourceLocks,
  sourceHolder,
  sourceLockIds,
  type ClaimRefusal,
  type ExclusiveClaim,
  type OrderTerms,
  type SourceBacking,
} from "./exclusive-claims.js";
import {
  acquireLease,
  assertLease,
  leaseProblem as leaseProblemOf,
  releaseLease,
  renewLease,
  type Acquired,
  type LeaseHolder,
} from "./lease.js";
import { migrate } from "./migrations.js";
import { termsFromJson, termsToJson } from "./tx-terms-json.js";
import { bigintPath, fromJournalJson, toJournalJson } from "./bigint-json.js";
import { compiledStatements } from "../util/compiled-statements.js";
import type { BackingOf, OrderView } from "./order-view.js";

export type { ClaimRefusal, ExclusiveClaim, OrderTerms, SourceBacking };

export type ClaimResult = { ok: true; action: ActionRow; created: boolean } | ClaimRefusal;

export type ActionStatus = "planned" | "signed" | "broadcast" | "confirmed" | "failed";

export interface ActionRow {
  id: number;
  orderId: string;
  kind: ActionKind;
  chain: string;
  request: ActionRequest;
  status: ActionStatus;
  tries: number;
  lastError: string | null;
  createdMs: number;
  updatedMs: number;
}

/**
 * `action`: the transaction carries its actions; `cancel`: it takes a fill's place and moves nothing;
 * `operator`: the operator's own transaction (a withdrawal, an approve), carrying no action.
 */
export type AttemptPurpose = "action" | "cancel" | "operator";

export interface AttemptRow extends TxAttemptRef {
  state: AttemptState;
  purpose: AttemptPurpose;
  /** The block it was seen in: final once `state` is confirmed, still reversible while live. */
  blockHeight: bigint | null;
  actionIds: number[];
  updatedMs: number;
}

export interface DecisionRow {
  id: number;
  orderId: string;
  outcome: "refuse" | "wait";
  reason: string;
  detail: string;
  atMs: number;
}

export interface OrderRow {
  orderId: string;
  /** The order as the service last showed it. */
  snapshot: Order;
  /** Still followed by the runner. */
  active: boolean;
  firstSeenMs: number;
  /** When the service's view of the order last changed (an unchanged view is not written again). */
  lastSeenMs: number;
}

interface RawOrder {
  order_id: string;
  snapshot: string;
  active: number;
  first_seen_ms: number;
  last_seen_ms: number;
}

interface RawAction {
  id: number;
  order_id: string;
  kind: ActionKind;
  chain: string;
  request: string;
  status: ActionStatus;
  tries: number;
  last_error: string | null;
  created_ms: number;
  updated_ms: number;
}

interface RawAttempt {
  id: number;
  chain: string;
  tx_hash: string;
  raw: string;
  nonce: string | null;
  terms: string;
  state: AttemptState;
  purpose: AttemptPurpose;
  block_height: string | null;
  created_ms: number;
  updated_ms: number;
  action_ids: string | null;
}

const LIVE_STATES = "('signed', 'broadcast', 'replaced')";

/** An action whose transaction a final cancel took the place of. */
export const CANCELLED =
  "cancelled: the fill was no longer safe and its transaction was replaced by one moving nothing";

/**
 * The solver's memory of money movements (SQLite, WAL, synchronous=FULL). One row per (order, action);
 * every signed transaction is stored before it is broadcast, so a restart re-broadcasts, never re-builds.
 */
export class Journal implements JournalView, FollowPositionsSource {
  private readonly db: Database.Database;
  private readonly sql: (text: string) => Database.Statement;
  /** Sums of fills by asset, kept while no action and no order's active flag has changed since. */
  private readonly fillSums = new Map<string, { epoch: number; sums: Map<string, bigint> }>();
  /**
   * The last snapshot parsed of each followed order, with its text. The parsed order is shared by every
   * reader of the same text: snapshots are never changed in place.
   */
  private readonly parsedSnapshots = new Map<string, { text: string; order: Order }>();
  /** One transaction function for every view: making one prepares its statements again. */
  private readonly readView: Database.Transaction<
    (orderId: string, backingOf: BackingOf) => OrderView | null
  >;
  /** Set once this instance holds the journal's lease: every claim and signature is then fenced by it. */
  private leaseHolder: string | null = null;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma("journal_mode = WAL");
    // FULL: a signed transaction must be on disk before it reaches the network.
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    migrate(this.db);
    this.sql = compiledStatements(this.db);
    this.readView = this.db.transaction((orderId: string, backingOf: BackingOf) =>
      this.viewOf(orderId, backingOf),
    );
  }

  close(): void {
    this.db.close();
  }

  /**
   * Takes the journal's lease for this instance; throws LeaseHeldError while another instance's lease has
   * not reached its deadline. From then on every claim and every signed transaction is journaled only
   * while the lease is ours.
   */
  acquireLease(me: LeaseHolder, ttlMs: number, nowMs = Date.now()): Acquired {
    const acquired = acquireLease(this.db, me, ttlMs, nowMs);
    this.leaseHolder = me.id;
    return acquired;
  }

  /** Throws LeaseLostError when another instance took the lease over. */
  renewLease(nowMs = Date.now()): void {
    if (this.leaseHolder !== null) renewLease(this.db, this.leaseHolder, nowMs);
  }

  releaseLease(): void {
    if (this.leaseHolder !== null) releaseLease(this.db, this.leaseHolder);
    this.leaseHolder = null;
  }

  /** Why this instance does not hold a live journal lease now, or null when it does. */
  leaseProblem(nowMs = Date.now()): string | null {
    if (this.leaseHolder === null) return "this instance has not taken the lease";
    return leaseProblemOf(this.db, this.leaseHolder, nowMs);
  }

  private fence(): void {
    if (this.leaseHolder !== null) assertLease(this.db, this.leaseHolder);
  }

  /**
   * Runs `work` as one transaction: every write in it is durable together, or none is. Claims made in
   * it are each still checked as they are made; a batch of them costs one disk sync instead of one each
   * (about 1 ms per claim, under the gate's lock, with a few hundred fills in one pass).
   */
  atomically<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /** The SQLite handle, for stores that keep their own tables in the journal (pnl-store.ts). */
  get database(): Database.Database {
    return this.db;
  }

  /**
   * Stores the service's view of an order; a view equal to the stored one writes nothing, so that a
   * round over a thousand unchanged orders costs no disk writes. Returns whether the row changed.
   */
  upsertOrder(order: Order, nowMs = Date.now()): boolean {
    const info = this.sql(
      `INSERT INTO orders (order_id, snapshot, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (order_id) DO UPDATE SET snapshot = excluded.snapshot, last_seen_ms = excluded.last_seen_ms
         WHERE orders.snapshot != excluded.snapshot`,
    ).run(order.order_id, JSON.stringify(order), nowMs, nowMs);
    return info.changes > 0;
  }

  isKnownOrder(orderId: string): boolean {
    return this.sql("SELECT 1 FROM orders WHERE order_id = ?").get(orderId) !== undefined;
  }

  orderSnapshot(orderId: string): Order | null {
    const row = this.sql("SELECT snapshot FROM orders WHERE order_id = ?").get(orderId) as
      { snapshot: string } | undefined;
    return row ? (JSON.parse(row.snapshot) as Order) : null;
  }

  activeOrderIds(): string[] {
    const rows = this.sql("SELECT order_id FROM orders WHERE active = 1").all() as {
      order_id: string;
    }[];
    return rows.map((r) => r.order_id);
  }

  /** Whether the runner still follows the order: null when the journal never saw it. */
  isOrderActive(orderId: string): boolean | null {
    const row = this.sql("SELECT active FROM orders WHERE order_id = ?").get(orderId) as
      { active: number } | undefined;
    return row === undefined ? null : row.active === 1;
  }

  /** Whether the runner settled this order for good; an order the journal never saw is not. */
  isOrderDone(orderId: string): boolean {
    const row = this.sql("SELECT active FROM orders WHERE order_id = ?").get(orderId) as
      { active: number } | undefined;
    return row !== undefined && row.active === 0;
  }

  markOrderDone(orderId: string): void {
    this.sql("UPDATE orders SET active = 0 WHERE order_id = ?").run(orderId);
    this.parsedSnapshots.delete(orderId);
  }

  orderActions(orderId: string): ActionRow[] {
    const rows = this.sql("SELECT * FROM actions WHERE order_id = ? ORDER BY id").all(orderId) as RawAction[];
    return rows.map(toActionRow);
  }

  action(actionId: number): ActionRow {
    const row = this.sql("SELECT * FROM actions WHERE id = ?").get(actionId) as RawAction | undefined;
    if (!row) throw new Error(`journal has no action ${actionId}`);
    return toActionRow(row);
  }

  /**
   * Claims the (order, kind) slot. Returns `created: false` when the action already exists, so a
   * caller can never start the same money movement twice. A fill or an instant refund commits the solver
   * to the order's source and must name it (`exclusive`): the claim is refused when the order already
   * took the other of the two, or when that source backs another order's; it freezes the order's terms.
   */
  claimAction(request: ActionRequest, nowMs = Date.now(), exclusive?: ExclusiveClaim): ClaimResult {
    const committing = EXCLUDES[request.kind] !== undefined;
    if (committing && exclusive === undefined) {
      throw new Error(
        `a ${request.kind} of order ${request.orderId} must name the source it commits against`,
      );
    }
    const claim = this.db.transaction((): ClaimResult => {
      this.fence();
      const existing = this.sql("SELECT * FROM actions WHERE order_id = ? AND kind = ?").get(
        request.orderId,
        request.kind,
      ) as RawAction | undefined;
      if (existing !== undefined) {
        if (exclusive !== undefined) noteSourceLocks(this.sql, request.orderId, exclusive);
        return { ok: true, action: toActionRow(existing), created: false };
      }
      if (exclusive !== undefined) {
        const refusal = checkExclusive(this.sql, request.orderId, request.kind, exclusive.backing);
        if (refusal !== null) return refusal;
        commitSource(this.sql, request.orderId, exclusive, toJournalJson(exclusive.terms), nowMs);
        noteSourceLocks(this.sql, request.orderId, exclusive);
      }
      this.sql(
        `INSERT INTO actions (order_id, kind, chain, request, status, created_ms, updated_ms)
           VALUES (?, ?, ?, ?, 'planned', ?, ?)`,
      ).run(request.orderId, request.kind, request.params.chain, toJournalJson(request), nowMs, nowMs);
      const row = this.sql("SELECT * FROM actions WHERE order_id = ? AND kind = ?").get(
        request.orderId,
        request.kind,
      ) as RawAction;
      return { ok: true, action: toActionRow(row), created: true };
    });
    return claim.immediate();
  }

  /** The order a source HTLC already backs (a fill or instant refund of it), or null. */
  sourceBackedBy(backing: SourceBacking): string | null {
    return sourceHolder(this.sql, backing);
  }

  /** The source locks this order's fill or instant refund relied on. */
  sourceLockIds(orderId: string): string[] {
    return sourceLockIds(this.sql, orderId);
  }

  /** The terms the solver acted on for this order, frozen at its first fill or instant refund; null before. */
  orderTerms(orderId: string): OrderTerms | null {
    const row = this.sql("SELECT terms FROM orders WHERE order_id = ?").get(orderId) as
      { terms: string | null } | undefined;
    return row?.terms ? fromJournalJson<OrderTerms>(row.terms) : null;
  }

  /** Hashes of every transaction ever journaled for one action of an order, whatever became of them. */
  actionTxids(orderId: string, kind: ActionKind): string[] {
    const rows = this.sql(
      `SELECT t.tx_hash FROM tx_attempts t JOIN action_attempts aa ON aa.attempt_id = t.id
         JOIN actions a ON a.id = aa.action_id WHERE a.order_id = ? AND a.kind = ? AND t.purpose = 'action'
         ORDER BY t.id`,
    ).all(orderId, kind) as { tx_hash: string }[];
    return rows.map((r) => r.tx_hash);
  }

  /** What a pass over the order needs, in one read (order-view.ts); null when the journal never saw it. */
  orderView(orderId: string, backingOf: BackingOf): OrderView | null {
    return this.readView.deferred(orderId, backingOf);
  }

  private viewOf(orderId: string, backingOf: BackingOf): OrderView | null {
    const row = this.orderRow(orderId);
    if (row === null) return null;
    const terms = this.orderTerms(orderId);
    const backing = backingOf(row.snapshot, terms);
    const holder = backing === null ? null : this.sourceBackedBy(backing);
    return {
      snapshot: row.snapshot,
      active: row.active,
      firstSeenMs: row.firstSeenMs,
      terms,
      actions: this.orderActions(orderId),
      fillTxids: this.actionTxids(orderId, "fill"),
      sourceLockIds: this.sourceLockIds(orderId),
      sourceBacksOrder: holder !== null && holder !== orderId ? holder : null,
      lastDecision: this.lastDecision(orderId),
    };
  }

  /** A failed action may be tried again: back to planned, keeping its history of attempts. */
  retryAction(actionId: number, request: ActionRequest, nowMs = Date.now()): void {
    this.sql(
      `UPDATE actions SET status = 'planned', request = ?, updated_ms = ? WHERE id = ? AND status = 'failed'`,
    ).run(toJournalJson(request), nowMs, actionId);
  }

  /** Stores a signed transaction for these actions; must complete before the transaction is broadcast. */
  recordSigned(actionIds: number[], tx: SignedTx, nowMs = Date.now()): AttemptRow {
    return this.insertAttempt(actionIds, tx, "action", nowMs);
  }

  /**
   * Stores a cancel of these actions' live transaction (same nonce or inputs, nothing moved); the actions
   * keep their status until one of the two is final.
   */
  recordCancel(actionIds: number[], tx: SignedTx, nowMs = Date.now()): AttemptRow {
    return this.insertAttempt(actionIds, tx, "cancel", nowMs);
  }

  /**
   * Stores an operator's transaction (solver withdraw, solver approve) before it is sent, fenced by the
   * lease like every other; the solver follows it as it follows a cancel: sent again while the node does
   * not know it, and, if it stays pending, out-paid by one that moves nothing, never built again.
   */
  recordOperator(tx: SignedTx, nowMs = Date.now()): AttemptRow {
    return this.insertAttempt([], tx, "operator", nowMs);
  }

  private insertAttempt(
    actionIds: number[],
    tx: SignedTx,
    purpose: AttemptPurpose,
    nowMs: number,
  ): AttemptRow {
    const insert = this.db.transaction(() => {
      this.fence();
      const info = this.sql(
        `INSERT INTO tx_attempts (chain, tx_hash, raw, nonce, terms, state, purpose, created_ms, updated_ms)
           VALUES (?, ?, ?, ?, ?, 'signed', ?, ?, ?)`,
      ).run(
        tx.chain,
        tx.txHash,
        tx.raw,
        tx.nonce === null ? null : tx.nonce.toString(),
        termsToJson(tx.terms),
        purpose,
        nowMs,
        nowMs,
      );
      const attemptId = Number(info.lastInsertRowid);
      for (const actionId of actionIds) {
        this.sql("INSERT INTO action_attempts (action_id, attempt_id) VALUES (?, ?)").run(
          actionId,
          attemptId,
        );
        if (purpose !== "action") continue;
        this.sql(
          `UPDATE actions SET status = CASE WHEN status = 'planned' OR status = 'failed' THEN 'signed' ELSE status END,
             tries = tries + 1, updated_ms = ? WHERE id = ?`,
        ).run(nowMs, actionId);
      }
      return attemptId;
    });
    return this.attempt(insert.immediate());
  }

  markBroadcast(attemptId: number, nowMs = Date.now()): void {
    this.db.transaction(() => {
      this.setAttemptState(attemptId, "broadcast", nowMs, "state = 'signed'");
      this.sql(
        `UPDATE actions SET status = 'broadcast', updated_ms = ?
           WHERE status = 'signed' AND id IN (SELECT action_id FROM action_attempts WHERE attempt_id = ?)`,
      ).run(nowMs, attemptId);
    })();
  }

  /**
   * Seen in a block, not yet final: the attempt stays live (followed, its nonce and inputs held) until it
   * is `finalityDepth` deep, since a reorganisation can still take it out.
   */
  markMined(attemptId: number, blockHeight: bigint, nowMs = Date.now()): void {
    this.sql(
      `UPDATE tx_attempts SET block_height = ?, updated_ms = ?,
         state = CASE WHEN state = 'signed' THEN 'broadcast' ELSE state END WHERE id = ? AND state IN ${LIVE_STATES}`,
    ).run(blockHeight.toString(), nowMs, attemptId);
  }

  /** A reorganisation took the attempt's block away: it is followed as sent, not mined. */
  markUnmined(attemptId: number, nowMs = Date.now()): void {
    this.sql(
      `UPDATE tx_attempts SET block_height = NULL, updated_ms = ? WHERE id = ? AND state IN ${LIVE_STATES}`,
    ).run(nowMs, attemptId);
  }

  /** Its replacement never reached the network: the attempt is the live one again. */
  restoreReplaced(attemptId: number, nowMs = Date.now()): void {
    this.setAttemptState(attemptId, "broadcast", nowMs, "state = 'replaced'");
  }

  markReplaced(attemptId: number, nowMs = Date.now()): void {
    this.setAttemptState(attemptId, "replaced", nowMs, `state IN ${LIVE_STATES}`);
  }

  /**
   * The attempt is mined: its actions are done, and every other attempt of them can no longer confirm.
   * A cancel's actions fail for good instead: their transaction can never be mined. In a batch whose
   * calls fail alone, `failedActions` (action id → reason) are the ones whose own call failed: they fail,
   * to be planned again, while the rest are done.
   */
  markConfirmed(
    attemptId: number,
    blockHeight: bigint,
    nowMs = Date.now(),
    failedActions: ReadonlyMap<number, string> = new Map(),
  ): void {
    this.db.transaction(() => {
      this.sql(
        "UPDATE tx_attempts SET state = 'confirmed', block_height = ?, updated_ms = ? WHERE id = ?",
      ).run(blockHeight.toString(), nowMs, attemptId);
      const cancel = this.attempt(attemptId).purpose === "cancel";
      const actionIds = this.actionIdsOf(attemptId);
      for (const actionId of actionIds) {
        const failure = cancel ? CANCELLED : failedActions.get(actionId);
        if (failure === undefined) {
          this.sql(
            "UPDATE actions SET status = 'confirmed', last_error = NULL, updated_ms = ? WHERE id = ?",
          ).run(nowMs, actionId);
        } else {
          this.sql(
            "UPDATE actions SET status = 'failed', last_error = ?, updated_ms = ? WHERE id = ? AND status != 'confirmed'",
          ).run(failure, nowMs, actionId);
        }
        this.sql(
          `UPDATE tx_attempts SET state = 'dropped', updated_ms = ? WHERE id != ? AND state IN ${LIVE_STATES}
             AND id IN (SELECT attempt_id FROM action_attempts WHERE action_id = ?)`,
        ).run(nowMs, attemptId, actionId);
      }
    })();
  }

  /** The signed bytes went to another party to complete and broadcast; the action is done on our side. */
  markDelivered(attemptId: number, nowMs = Date.now()): void {
    this.db.transaction(() => {
      this.sql("UPDATE tx_attempts SET state = 'delivered', updated_ms = ? WHERE id = ?").run(
        nowMs,
        attemptId,
      );
      for (const actionId of this.actionIdsOf(attemptId)) {
        this.sql("UPDATE actions SET status = 'confirmed', updated_ms = ? WHERE id = ?").run(nowMs, actionId);
      }
    })();
  }

  /** The attempt failed on chain (or will never be mined); its actions fail unless another attempt is live. */
  markAttemptFailed(attemptId: number, state: "failed" | "dropped", error: string, nowMs = Date.now()): void {
    this.db.transaction(() => {
      this.sql("UPDATE tx_attempts SET state = ?, error = ?, updated_ms = ? WHERE id = ?").run(
        state,
        error,
        nowMs,
        attemptId,
      );
      for (const actionId of this.actionIdsOf(attemptId)) {
        const live = this.sql(
          `SELECT 1 FROM tx_attempts t JOIN action_attempts aa ON aa.attempt_id = t.id
             WHERE aa.action_id = ? AND t.state IN ${LIVE_STATES}`,
        ).get(actionId);
        if (!live) this.failAction(actionId, error, nowMs);
      }
    })();
  }

  /** Building failed before anything was signed (for example the call would revert). */
  failAction(actionId: number, error: string, nowMs = Date.now()): void {
    this.sql(
      "UPDATE actions SET status = 'failed', last_error = ?, updated_ms = ? WHERE id = ? AND status != 'confirmed'",
    ).run(error, nowMs, actionId);
  }

  /** The chain shows the action's effect already happened (for example after a crash before journaling). */
  markActionSatisfied(actionId: number, note: string, nowMs = Date.now()): void {
    this.sql("UPDATE actions SET status = 'confirmed', last_error = ?, updated_ms = ? WHERE id = ?").run(
      note,
      nowMs,
      actionId,
    );
  }

  attempt(attemptId: number): AttemptRow {
    const row = this.sql(`${ATTEMPT_SELECT} WHERE t.id = ? GROUP BY t.id`).get(attemptId) as
      RawAttempt | undefined;
    if (!row) throw new Error(`journal has no transaction attempt ${attemptId}`);
    return toAttemptRow(row);
  }

  /** A chain reader's kept positions (chains/follow-positions.ts), written outside the lease's fence: they move no money. */
  followPositions(chain: string): FollowPositions {
    const read = this.sql("SELECT value FROM follow_positions WHERE chain = ? AND key = ?");
    const write = this.sql(
      "INSERT INTO follow_positions (chain, key, value) VALUES (?, ?, ?) ON CONFLICT (chain, key) DO UPDATE SET value = excluded.value",
    );
    return {
      get: (key) => (read.get(chain, key) as { value: string } | undefined)?.value ?? null,
      set: (key, value) => void write.run(chain, key, value),
    };
  }

  journaledTx(chain: string, txHash: string): JournaledTx | null {
    const row = this.sql(`${ATTEMPT_SELECT} WHERE t.chain = ? AND t.tx_hash = ? GROUP BY t.id`).get(
      chain,
      txHash,
    ) as RawAttempt | undefined;
    if (row === undefined) return null;
    const attempt = toAttemptRow(row);
    return {
      raw: attempt.raw,
      state: attempt.state,
      actions: attempt.actionIds.map((id) => this.action(id).request),
    };
  }

  liveAttempts(chain: string): TxAttemptRef[] {
    return this.liveAttemptRows().filter((a) => a.chain === chain);
  }

  /** Every attempt not final yet, oldest first (EVM nonces re-broadcast in order). */
  liveAttemptRows(): AttemptRow[] {
    const rows = this.sql(
      `${ATTEMPT_SELECT} WHERE t.state IN ${LIVE_STATES} GROUP BY t.id ORDER BY t.id`,
    ).all() as RawAttempt[];
    return rows.map(toAttemptRow);
  }

  attemptsOfAction(actionId: number): AttemptRow[] {
    const rows = this.sql(
      `${ATTEMPT_SELECT} WHERE t.id IN (SELECT attempt_id FROM action_attempts WHERE action_id = ?)
         GROUP BY t.id ORDER BY t.id`,
    ).all(actionId) as RawAttempt[];
    return rows.map(toAttemptRow);
  }

  /**
   * Records why nothing was done for an order. Returns true when this differs from the previous
   * decision, so callers log a change once instead of every poll.
   */
  recordDecision(
    orderId: string,
    outcome: "refuse" | "wait",
    reason: string,
    detail: string,
    nowMs = Date.now(),
  ): boolean {
    const last = this.lastDecision(orderId);
    if (last && last.outcome === outcome && last.reason === reason) return false;
    this.sql("INSERT INTO decisions (order_id, outcome, reason, detail, at_ms) VALUES (?, ?, ?, ?, ?)").run(
      orderId,
      outcome,
      reason,
      detail,
      nowMs,
    );
    return true;
  }

  lastDecision(orderId: string): DecisionRow | null {
    const row = this.sql("SELECT * FROM decisions WHERE order_id = ? ORDER BY id DESC LIMIT 1").get(
      orderId,
    ) as Record<string, unknown> | undefined;
    return row ? toDecisionRow(row) : null;
  }

  decisions(orderId?: string, limit = 200): DecisionRow[] {
    const rows = (
      orderId === undefined
        ? this.sql("SELECT * FROM decisions ORDER BY id DESC LIMIT ?").all(limit)
        : this.sql("SELECT * FROM decisions WHERE order_id = ? ORDER BY id DESC LIMIT ?").all(orderId, limit)
    ) as Record<string, unknown>[];
    return rows.map(toDecisionRow);
  }

  recentActions(limit = 200): ActionRow[] {
    const rows = this.sql("SELECT * FROM actions ORDER BY id DESC LIMIT ?").all(limit) as RawAction[];
    return rows.map(toActionRow);
  }

  /** Orders the journal knows, most recently seen first (for the operator's views). */
  recentOrders(limit = 200): OrderRow[] {
    const rows = this.sql("SELECT * FROM orders ORDER BY last_seen_ms DESC, order_id LIMIT ?").all(
      limit,
    ) as RawOrder[];
    return rows.map((row) => toOrderRow(row));
  }

  /** One order as the journal holds it; null when it never saw the order. */
  orderRow(orderId: string): OrderRow | null {
    const row = this.sql("SELECT * FROM orders WHERE order_id = ?").get(orderId) as RawOrder | undefined;
    if (row === undefined) return null;
    // Every pass reads its order: a snapshot unchanged since the last read is not parsed again.
    const parsed = this.parsedSnapshots.get(orderId);
    if (parsed?.text === row.snapshot) return toOrderRow(row, parsed.order);
    const order = JSON.parse(row.snapshot) as Order;
    if (row.active === 1) this.parsedSnapshots.set(orderId, { text: row.snapshot, order });
    return toOrderRow(row, order);
  }

  /** Transaction attempts, newest first (for the operator's views). */
  recentAttempts(limit = 200): AttemptRow[] {
    const rows = this.sql(`${ATTEMPT_SELECT} GROUP BY t.id ORDER BY t.id DESC LIMIT ?`).all(
      limit,
    ) as RawAttempt[];
    return rows.map(toAttemptRow);
  }

  /**
   * Destination value of fills claimed but not yet signed, per asset id. Once signed, a fill is a live
   * attempt and the executor's balance already leaves it out (`ChainExecutor.balance`); until then only
   * this reservation keeps two fills from promising the same inventory.
   */
  plannedFillsByAsset(): Map<string, bigint> {
    return this.fillsByAsset("a.status = 'planned'");
  }

  /** Destination value of every fill of an open order that was not refunded: the exposure in flight. */
  inFlightByAsset(): Map<string, bigint> {
    return this.fillsByAsset("a.status != 'failed'");
  }

  /**
   * Every quote asks for these, so the sums are kept until a write moves the fill-sums epoch (triggers
   * on actions, new orders and orders' active flag, migrations.ts): under load the journal is written
   * many times a second, and summing again at each write made every quote and fill check read every
   * open fill. Callers get their own copy.
   */
  private fillsByAsset(statusFilter: string): Map<string, bigint> {
    // Not inside a transaction: an epoch moved there goes back if it is rolled back, with sums that
    // would still count its writes.
    const epoch = this.db.inTransaction ? null : this.fillSumsEpoch();
    const kept = this.fillSums.get(statusFilter);
    if (epoch !== null && kept?.epoch === epoch) return new Map(kept.sums);
    const rows = this.sql(
      `SELECT json_extract(a.request, '$.params.asset') AS asset,
              json_extract(a.request, '${bigintPath("$.params.amount")}') AS amount
         FROM actions a JOIN orders o ON o.order_id = a.order_id
         WHERE a.kind = 'fill' AND ${statusFilter} AND o.active = 1
         AND NOT EXISTS (SELECT 1 FROM actions r WHERE r.order_id = a.order_id AND r.kind = 'refund' AND r.status = 'confirmed')`,
    ).all() as { asset: string; amount: string }[];
    const sums = new Map<string, bigint>();
    for (const row of rows) sums.set(row.asset, (sums.get(row.asset) ?? 0n) + BigInt(row.amount));
    if (epoch !== null) this.fillSums.set(statusFilter, { epoch, sums });
    return new Map(sums);
  }

  private fillSumsEpoch(): number {
    return (this.sql("SELECT n FROM fill_sums_epoch WHERE id = 1").get() as { n: number }).n;
  }

  private actionIdsOf(attemptId: number): number[] {
    const rows = this.sql("SELECT action_id FROM action_attempts WHERE attempt_id = ?").all(attemptId) as {
      action_id: number;
    }[];
    return rows.map((r) => r.action_id);
  }

  private setAttemptState(attemptId: number, state: AttemptState, nowMs: number, guard: string): void {
    this.sql(`UPDATE tx_attempts SET state = ?, updated_ms = ? WHERE id = ? AND ${guard}`).run(
      state,
      nowMs,
      attemptId,
    );
  }
}

const ATTEMPT_SELECT = `SELECT t.id, t.chain, t.tx_hash, t.raw, t.nonce, t.terms, t.state, t.purpose, t.block_height, t.created_ms, t.updated_ms,
  group_concat(aa.action_id) AS action_ids
  FROM tx_attempts t LEFT JOIN action_attempts aa ON aa.attempt_id = t.id`;

function toOrderRow(row: RawOrder, snapshot: Order = JSON.parse(row.snapshot) as Order): OrderRow {
  return {
    orderId: row.order_id,
    snapshot,
    active: row.active === 1,
    firstSeenMs: row.first_seen_ms,
    lastSeenMs: row.last_seen_ms,
  };
}

function toActionRow(row: RawAction): ActionRow {
  return {
    id: row.id,
    orderId: row.order_id,
    kind: row.kind,
    chain: row.chain,
    request: fromJournalJson<ActionRequest>(row.request),
    status: row.status,
    tries: row.tries,
    lastError: row.last_error,
    createdMs: row.created_ms,
    updatedMs: row.updated_ms,
  };
}

function toAttemptRow(row: RawAttempt): AttemptRow {
  return {
    id: row.id,
    chain: row.chain,
    txHash: row.tx_hash,
    raw: row.raw,
    nonce: row.nonce === null ? null : BigInt(row.nonce),
    terms: termsFromJson(row.terms),
    state: row.state,
    purpose: row.purpose,
    blockHeight: row.block_height === null ? null : BigInt(row.block_height),
    createdAtMs: row.created_ms,
    updatedMs: row.updated_ms,
    actionIds: row.action_ids === null ? [] : row.action_ids.split(",").map(Number),
  };
}

function toDecisionRow(row: Record<string, unknown>): DecisionRow {
  return {
    id: row.id as number,
    orderId: row.order_id as string,
    outcome: row.outcome as "refuse" | "wait",
    reason: row.reason as string,
    detail: row.detail as string,
    atMs: row.at_ms as number,
  };
}
