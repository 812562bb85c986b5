import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { command as status } from "../../../../src/cli/commands/status.js";
import type { StatusView } from "../../../../src/ops/journal-views.js";
import { recordingIo } from "../io.js";
import {
  ACTIVE,
  FILL_TX,
  RAW_MARKER,
  REDEEM_TX,
  REFUSED,
  SECRET,
  SETTLED,
  writeFixtureJournal,
} from "./journal-fixture.js";

const path = writeFixtureJournal();

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["status", ...args], { io, commands: [status] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

describe("solver status", () => {
  it("shows the followed orders with their actions, transactions and last decision", async () => {
    const { code, out } = await run("--journal", path);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe("Active orders: 1");
    expect(out).toContain(`order ${ACTIVE}  RedeemDetected  last seen 2030-01-01 00:00:05`);
    expect(out).toContain("1000000 ethereum_localnet:usdc -> 990000 arbitrum_localnet:usdc");
    expect(lines.find((l) => l.includes(FILL_TX))).toMatch(
      /^\s+\d+\s+fill\s+arbitrum_localnet\s+confirmed\s+1\s/,
    );
    expect(lines.find((l) => l.includes(REDEEM_TX))).toMatch(/redeem\s+ethereum_localnet\s+failed \(/);
    expect(out).toContain(
      "last decision: wait source_confirmations (2030-01-01 00:00:05): 1 of 2 confirmations",
    );
    expect(out).not.toContain(SETTLED);
    expect(out).not.toContain(REFUSED);
  });

  it("never prints a secret or signed bytes, even when an error text quotes the secret", async () => {
    const { out } = await run("--journal", path);
    expect(out).toContain("failed (redeem([secret]) reverted)");
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(RAW_MARKER);
    const json = await run("--journal", path, "--json");
    expect(json.out).not.toContain(SECRET);
    expect(json.out).not.toContain(RAW_MARKER);
  });

  it("prints JSON with the recent actions and decisions of every order", async () => {
    const { code, out } = await run("--journal", path, "--json");
    expect(code).toBe(0);
    const view = JSON.parse(out) as StatusView;
    expect(view.activeOrders.map((o) => o.orderId)).toEqual([ACTIVE]);
    expect(view.activeOrders[0]!.actions.map((a) => [a.kind, a.status, a.txHash])).toEqual([
      ["fill", "confirmed", FILL_TX],
      ["redeem", "failed", REDEEM_TX],
    ]);
    expect(view.recentActions).toHaveLength(4);
    expect(view.recentDecisions.map((d) => [d.orderId, d.outcome, d.reason])).toEqual([
      [ACTIVE, "wait", "source_confirmations"],
      [REFUSED, "refuse", "quote_mismatch"],
    ]);
  });

  it("refuses a journal that does not exist instead of creating one, exit 1", async () => {
    const { code, err } = await run("--journal", `${path}.missing`);
    expect(code).toBe(1);
    expect(err).toContain(`no journal at ${path}.missing`);
  });

  it("without --journal reads journal.path from the configuration, exit 2 when it is invalid", async () => {
    const io = recordingIo({});
    expect(await runCli(["status"], { io, commands: [status] })).toBe(2);
    expect(io.err.join("\n")).toMatch(/^invalid configuration/);
  });
});
