/**
 * One solver instance per journal. The instance that runs holds a lease row, renewed every round; a
 * second instance refuses to start while the lease is fresh, naming its holder; a lease whose holder
 * stopped renewing it for `ttlMs` is taken over. Every claim of an action and every signed transaction
 * is journaled only if this instance still holds the lease (checked in the same SQLite transaction), so
 * an instance that paused past its lease and woke up again cannot move money beside its successor.
 */
import type Database from "better-sqlite3";

export interface LeaseHolder {
  /** Unique per process start: host, pid and a random part. */
  id: string;
  host: string;
  pid: number;
}

interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
  acquired_ms: number;
  heartbeat_ms: number;
}

export class LeaseHeldError extends Error {
  constructor(
    readonly holder: LeaseHolder,
    readonly heartbeatMs: number,
    ttlMs: number,
  ) {
    super(
      `the journal is in use by another solver (${holder.host}, pid ${holder.pid}, lease ${holder.id}), ` +
        `last seen ${new Date(heartbeatMs).toISOString()}; stop it, or wait ${Math.ceil(ttlMs / 1000)} s ` +
        "after it stopped for its lease to lapse",
    );
    this.name = "LeaseHeldError";
  }
}

export class LeaseLostError extends Error {
  constructor(holder: string, now: LeaseRow | undefined) {
    super(
      now === undefined
        ? `this solver's journal lease (${holder}) is gone; stopping before it moves any money`
        : `another solver (${now.host}, pid ${now.pid}) took over the journal lease from ${holder}; stopping before it moves any money`,
    );
    this.name = "LeaseLostError";
  }
}

export interface Acquired {
  /** The holder whose lapsed lease was taken over, if any. */
  tookOverFrom: LeaseHolder | null;
}

/**
 * Whether the holder of a lease is still running. A holder on this host whose process is gone cannot
 * renew it: its lease is taken over at once. Elsewhere only the lapse of `ttlMs` tells.
 */
export type HolderAlive = (holder: LeaseHolder) => boolean;

export function acquireLease(
  db: Database.Database,
  me: LeaseHolder,
  ttlMs: number,
  nowMs: number,
  alive: HolderAlive,
): Acquired {
  return db
    .transaction((): Acquired => {
      const row = currentLease(db);
      const holder = row === undefined ? null : { id: row.holder, host: row.host, pid: row.pid };
      const fresh = row !== undefined && nowMs - row.heartbeat_ms < ttlMs;
      if (row !== undefined && holder !== null && row.holder !== me.id && fresh && alive(holder)) {
        throw new LeaseHeldError({ id: row.holder, host: row.host, pid: row.pid }, row.heartbeat_ms, ttlMs);
      }
      db.prepare("DELETE FROM lease").run();
      db.prepare(
        "INSERT INTO lease (id, holder, host, pid, acquired_ms, heartbeat_ms) VALUES (1, ?, ?, ?, ?, ?)",
      ).run(me.id, me.host, me.pid, nowMs, nowMs);
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

export function releaseLease(db: Database.Database, holder: string): void {
  db.prepare("DELETE FROM lease WHERE holder = ?").run(holder);
}

function currentLease(db: Database.Database): LeaseRow | undefined {
  return db.prepare("SELECT holder, host, pid, acquired_ms, heartbeat_ms FROM lease WHERE id = 1").get() as
    LeaseRow | undefined;
}

/** This process's holder identity. */
export function processHolder(host: string, pid: number, nonce: string): LeaseHolder {
  return { id: `${host}:${pid}:${nonce}`, host, pid };
}

/** A holder is alive unless it ran on this host and its process is gone. */
export function aliveOnHost(thisHost: string): HolderAlive {
  return (holder) => {
    if (holder.host !== thisHost) return true;
    // Our own pid under another lease id: an earlier run of this process slot (a restarted container).
    if (holder.pid === process.pid) return false;
    try {
      process.kill(holder.pid, 0);
      return true;
    } catch (error) {
      // EPERM: the process exists but belongs to another user.
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  };
}
