import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Journal } from "../../../../src/journal/journal.js";
import { runCli } from "../../../../src/cli.js";
import { command as journalCommand } from "../../../../src/cli/commands/journal.js";
import type { JournalLogView } from "../../../../src/ops/journal-views.js";
import { recordingIo } from "../io.js";
import { ACTIVE, FILL_TX, RAW_MARKER, REFUSED, SECRET, writeFixtureJournal } from "./journal-fixture.js";

const path = writeFixtureJournal();

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["journal", "--journal", path, ...args], { io, commands: [journalCommand] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

function sectionRows(out: string, title: string): string[] {
  const start = out.indexOf(`${title}:\n`);
  const body = out.slice(start + title.length + 2).split("\n\n")[0] ?? "";
  return body.split("\n").slice(1);
}

describe("solver journal", () => {
  it("shows recent actions, attempts and decisions, newest first", async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).toMatch(/^recent actions:\n\s+ID\s+ORDER\s+KIND\s+CHAIN\s+STATUS\s+TRIES\s+TX\s+UPDATED/);
    expect(sectionRows(out, "recent actions").map((r) => r.trim().split(/\s+/).slice(0, 3))).toEqual([
      ["4", ACTIVE, "redeem"],
      ["3", ACTIVE, "fill"],
      ["2", "5e".repeat(32), "redeem"],
      ["1", "5e".repeat(32), "fill"],
    ]);
    const attempts = sectionRows(out, "recent transaction attempts");
    expect(attempts).toHaveLength(4);
    expect(attempts[1]).toContain(FILL_TX);
    expect(sectionRows(out, "recent decisions").map((r) => r.trim().split(/\s+/).slice(2, 5))).toEqual([
      [ACTIVE, "wait", "source_confirmations"],
      [REFUSED, "refuse", "quote_mismatch"],
    ]);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(RAW_MARKER);
  });

  it("limits each kind with --limit and prints JSON with --json", async () => {
    const view = JSON.parse((await run("--limit", "1", "--json")).out) as JournalLogView;
    expect(view.actions.map((a) => a.kind)).toEqual(["redeem"]);
    expect(view.attempts).toHaveLength(1);
    expect(view.decisions.map((d) => d.reason)).toEqual(["source_confirmations"]);
    expect(Object.keys(view.attempts[0]!)).not.toContain("raw");
  });

  it("says so when the journal is empty", async () => {
    const empty = join(mkdtempSync(join(tmpdir(), "cli-journal-")), "empty.sqlite");
    new Journal(empty).close();
    const io = recordingIo();
    expect(await runCli(["journal", "--journal", empty], { io, commands: [journalCommand] })).toBe(0);
    expect(io.out).toEqual([
      "recent actions: none\n\nrecent transaction attempts: none\n\nrecent decisions: none",
    ]);
  });
});
