/**
 * One solver instance per journal. The instance that runs holds a lease row under a random instance id,
 * renewed every few seconds; a second instance refuses to start while the lease's heartbeat deadline (its
 * last renewal plus its holder's `ttlMs`) is ahead, naming its holder; once the deadline has passed, or
 * the holder released it, the lease is taken over. The host and pid a lease names are only for people:
 * two containers may share a hostname and each see the other's pid as gone, so neither decides anything.
 * Every claim of an action and every signed transaction is journaled only if this instance still holds
 * the lease (checked in the same SQLite transaction), so an instance that paused past its lease and woke
 * up again cannot move money beside its successor.
 */
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";

export interface LeaseHolder {
  /** Random per process start: what holds the lease. */
  id: string;
  /** Where the holder runs, for the operator reading an error; never used to judge the lease. */
  host: string;
  pid: number;
}

interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
  acquired_ms: number;
  heartbeat_ms: number;
  /** The holder's lease period; null on a row written before it was kept. */
  ttl_ms: number | null;
}

export class LeaseHeldError extends Error {
  constructor(
    readonly holder: LeaseHolder,
    /** When the lease lapses unless its holder renews it. */
    readonly deadlineMs: number,
  ) {
    super(
      `the journal is in use by another solver (instance ${holder.id} on ${holder.host}, pid ${holder.pid}), ` +
        `whose lease runs until ${new Date(deadlineMs).toISOString()} unless renewed; stop it, or wait for ` +
        "its lease to lapse after it stopped",
    );
    this.name = "LeaseHeldError";
  }
}

export class LeaseLostError extends Error {
  constructor(holder: string, now: LeaseRow | undefined) {
    super(
      now === undefined
        ? `this solver's journal lease (${holder}) is gone; stopping before it moves any money`
        : `another solver (instance ${now.holder} on ${now.host}, pid ${now.pid}) took over the journal lease from ${holder}; stopping before it moves any money`,
    );
    this.name = "LeaseLostError";
  }
}

export interface Acquired {
  /** The holder whose lapsed lease was taken over, if any. */
  tookOverFrom: LeaseHolder | null;
}

/** When a lease lapses: its last renewal plus its holder's period (the acquirer's for an older row). */
function deadlineOf(row: LeaseRow, ttlMs: number): number {
  return row.heartbeat_ms + (row.ttl_ms ?? ttlMs);
}

export function acquireLease(db: Database.Database, me: LeaseHolder, ttlMs: number, nowMs: number): Acquired {
  return db
    .transaction((): Acquired => {
      const row = currentLease(db);
      const holder = row === undefined ? null : { id: row.holder, host: row.host, pid: row.pid };
      if (row !== undefined && holder !== null && row.holder !== me.id && nowMs < deadlineOf(row, ttlMs)) {
        throw new LeaseHeldError(holder, deadlineOf(row, ttlMs));
      }
      db.prepare("DELETE FROM lease").run();
      db.prepare(
        "INSERT INTO lease (id, holder, host, pid, acquired_ms, heartbeat_ms, ttl_ms) VALUES (1, ?, ?, ?, ?, ?, ?)",
      ).run(me.id, me.host, me.pid, nowMs, nowMs, ttlMs);
      return { tookOverFrom: row === undefined || row.holder === me.id ? null : holder };
    })
    .immediate();
}

/** Renews the lease; throws LeaseLostError when another instance holds it now. */
export function renewLease(db: Database.Database, holder: string, nowMs: number): void {
  const changed = db
    .prepare("UPDATE lease SET heartbeat_ms = ? WHERE id = 1 AND holder = ?")
    .run(nowMs, holder);
  if (changed.changes === 0) throw new LeaseLostError(holder, currentLease(db));
}

/** Inside a write transaction: throws LeaseLostError unless `holder` holds the lease. */
export function assertLease(db: Database.Database, holder: string): void {
  const row = currentLease(db);
  if (row?.holder !== holder) throw new LeaseLostError(holder, row);
}

/**
 * Why `holder` does not hold a live lease at `nowMs` (another holds it, none is held, or its own lapsed
 * unrenewed), or null when it does.
 */
export function leaseProblem(db: Database.Database, holder: string, nowMs: number): string | null {
  const row = currentLease(db);
  if (row === undefined) return "no lease is held";
  if (row.holder !== holder) return `held by another instance (${row.holder} on ${row.host}, pid ${row.pid})`;
  const deadline = deadlineOf(row, row.ttl_ms ?? 0);
  if (nowMs >= deadline) return `lapsed ${nowMs - deadline} ms ago without a renewal`;
  return null;
}

export function releaseLease(db: Database.Database, holder: string): void {
  db.prepare("DELETE FROM lease WHERE holder = ?").run(holder);
}

function currentLease(db: Database.Database): LeaseRow | undefined {
  return db
    .prepare("SELECT holder, host, pid, acquired_ms, heartbeat_ms, ttl_ms FROM lease WHERE id = 1")
    .get() as LeaseRow | undefined;
}

/** A holder identity for this process start: a random instance id, and where it runs for the record. */
export function newLeaseHolder(host: string, pid: number): LeaseHolder {
  return { id: randomBytes(16).toString("hex"), host, pid };
}
