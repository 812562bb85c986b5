import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { command as journalCommand } from "../../../../src/cli/commands/journal.js";
import { Journal } from "../../../../src/journal/journal.js";
import { recordingIo } from "../io.js";

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["journal", ...args], { io, commands: [journalCommand] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

/**
 * Another connection, on a thread of its own as the daemon would be in its process, writing an order and
 * its decision in one transaction each, as fast as it can, until told to stop.
 */
const WRITER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma("busy_timeout = 5000");
const insertOrder = db.prepare("INSERT INTO orders (order_id, snapshot, first_seen_ms, last_seen_ms) VALUES (?, '{}', 0, 0)");
const insertDecision = db.prepare("INSERT INTO decisions (order_id, outcome, reason, detail, at_ms) VALUES (?, 'wait', 'r', 'd', 0)");
const pair = db.transaction((id) => { insertOrder.run(id); insertDecision.run(id); });
let n = 0;
let stop = false;
parentPort.on("message", () => { stop = true; });
function burst() {
  for (let i = 0; i < 50; i++) pair("o" + n++);
  if (n === 500) parentPort.postMessage("writing");
  if (stop) { db.close(); parentPort.postMessage(n); } else setImmediate(burst);
}
burst();
`;

describe("solver journal backup", () => {
  it("copies a journal being written into a consistent, readable file of mode 600", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-backup-"));
    const path = join(dir, "journal.sqlite");
    new Journal(path).close();
    const worker = new Worker(WRITER, {
      eval: true,
      workerData: { path, module: createRequire(import.meta.url).resolve("better-sqlite3") },
    });
    const written = new Promise<number>((resolve) =>
      worker.on("message", (m: unknown) => typeof m === "number" && resolve(m)),
    );
    await new Promise<void>((resolve) => worker.once("message", () => resolve()));
    const out = join(dir, "copy.sqlite");
    const { code, out: text } = await run("backup", "--journal", path, "--out", out);
    worker.postMessage("stop");
    const total = await written;
    await worker.terminate();
    expect(code).toBe(0);
    expect(text).toMatch(/^backed up .* to .*copy\.sqlite \(\d+ pages\); rows:/);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const copy = new Database(out, { readonly: true });
    const count = (table: string) =>
      (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const orders = count("orders");
    const decisions = count("decisions");
    copy.close();
    // Taken while writes went on: some of them, never all, and never an order without its decision.
    expect(orders).toBeGreaterThanOrEqual(500);
    expect(orders).toBeLessThan(total);
    expect(decisions).toBe(orders);
    expect(text).toContain(`orders                   ${orders}`);
  });

  it("refuses to overwrite a file, and a journal that does not exist", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-backup-"));
    const path = join(dir, "journal.sqlite");
    new Journal(path).close();
    const taken = join(dir, "taken.sqlite");
    writeFileSync(taken, "keep me");
    const over = await run("backup", "--journal", path, "--out", taken);
    expect(over.code).toBe(1);
    expect(over.err).toContain(`${taken} already exists; a backup never overwrites a file`);
    const missing = await run(
      "backup",
      "--journal",
      join(dir, "none.sqlite"),
      "--out",
      join(dir, "b.sqlite"),
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no journal at");
    expect(existsSync(join(dir, "b.sqlite"))).toBe(false);
    const noOut = await run("backup", "--journal", path);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toContain("backup needs --out FILE");
  });
});
