/**
 * A copy of the journal taken while the solver may be writing it, through SQLite's online backup: the
 * copy is one consistent state of the journal (what a crash at that moment would have left), never a
 * file copied half before and half after a write, as `cp` of a WAL database can give.
 */
import { chmodSync, existsSync, rmSync } from "node:fs";
import Database from "better-sqlite3";

export interface JournalBackup {
  path: string;
  pages: number;
  /** Rows per table of the copy, read back from it. */
  rows: Record<string, number>;
}

export class BackupTargetExistsError extends Error {
  constructor(path: string) {
    super(`${path} already exists; a backup never overwrites a file: give a new --out`);
    this.name = "BackupTargetExistsError";
  }
}

const TABLES_SQL =
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name";

/** Opens the copy on its own, checks its integrity and counts its rows: a backup that cannot be read is none. */
function verifyCopy(path: string): Record<string, number> {
  const copy = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma("integrity_check", { simple: true });
    if (check !== "ok")
      throw new Error(`the backup at ${path} fails SQLite's integrity check: ${String(check)}`);
    const tables = (copy.prepare(TABLES_SQL).all() as { name: string }[]).map((t) => t.name);
    return Object.fromEntries(
      tables.map((name) => {
        const row = copy.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number };
        return [name, row.n];
      }),
    );
  } finally {
    copy.close();
  }
}

/**
 * Backs the journal at `source` up to `target`, a new file. The source is opened read-only (no
 * migration, no lease), so a running solver keeps writing; the copy is checked before it is reported.
 */
export async function backupJournal(source: string, target: string): Promise<JournalBackup> {
  if (existsSync(target)) throw new BackupTargetExistsError(target);
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // After the first step has measured the database, the rest goes in one step, under one read
    // transaction: a writer between steps would otherwise restart the copy again and again.
    const done = await db.backup(target, { progress: ({ remainingPages }) => remainingPages });
    // Readable by its owner only, as the journal's own directory should be.
    chmodSync(target, 0o600);
    return { path: target, pages: done.totalPages, rows: verifyCopy(target) };
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
