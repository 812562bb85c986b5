import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { command as orders } from "../../../../src/cli/commands/orders.js";
import type { OrderDetailView, OrderView } from "../../../../src/ops/journal-views.js";
import { recordingIo } from "../io.js";
import {
  ACTIVE,
  FILL_TX,
  RAW_MARKER,
  REDEEM_TX,
  REFUSED,
  SECRET,
  SECRET_HASH,
  SETTLED,
  writeFixtureJournal,
} from "./journal-fixture.js";

const path = writeFixtureJournal();

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["orders", "--journal", path, ...args], { io, commands: [orders] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

describe("solver orders", () => {
  it("lists every order, most recently seen first, with actions and decision", async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    const [header, ...rows] = out.split("\n");
    expect(header).toMatch(/^ORDER\s+STATUS\s+FOLLOWED\s+SWAP\s+ACTIONS\s+DECISION\s+LAST SEEN$/);
    expect(rows.map((r) => r.slice(0, 64))).toEqual([ACTIVE, REFUSED, SETTLED]);
    expect(rows[0]).toMatch(
      /RedeemDetected\s+yes\s+.*fill:confirmed redeem:failed\s+wait:source_confirmations/,
    );
    expect(rows[1]).toMatch(/Initiated\s+no\s+.*\s-\s+refuse:quote_mismatch\s+2030-01-01 00:00:04$/);
    expect(rows[2]).toMatch(/Redeemed\s+no\s+.*fill:confirmed redeem:confirmed\s+-\s/);
  });

  it("honours --limit and refuses a limit that is no positive integer (exit 2)", async () => {
    const limited = await run("--limit", "1");
    expect(limited.out.split("\n")).toHaveLength(2);
    const bad = await run("--limit", "0");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--limit must be a positive integer, not "0"');
  });

  it("shows one order in detail: sides, actions, attempts with nonces, decisions; secret hash only", async () => {
    const { code, out } = await run("--order", ACTIVE);
    expect(code).toBe(0);
    expect(out).toContain(`order ${ACTIVE}`);
    expect(out).toContain("status      RedeemDetected (followed)");
    expect(out).toContain(`secret hash ${SECRET_HASH}`);
    expect(out).toMatch(/source {6}1000000 ethereum_localnet:usdc on ethereum_localnet, swap a{64}/);
    expect(out).toMatch(/attempts:\n\s+ID\s+CHAIN\s+STATE\s+NONCE\s+TX\s+ACTIONS\s+CREATED/);
    const attemptSection = out.slice(out.indexOf("attempts:"), out.indexOf("decisions:"));
    const attemptLines = attemptSection.split("\n").filter((l) => /0x/.test(l));
    expect(attemptLines.map((l) => l.trim().split(/\s+/).slice(1, 5))).toEqual([
      ["arbitrum_localnet", "confirmed", "2", FILL_TX],
      ["ethereum_localnet", "broadcast", "3", REDEEM_TX],
    ]);
    expect(out).toMatch(
      /decisions:\n\s+AT\s+OUTCOME\s+REASON\s+DETAIL\n\s+2030-01-01 00:00:05\s+wait\s+source_confirmations/,
    );
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(RAW_MARKER);
  });

  it("prints one order as JSON, and the list as JSON", async () => {
    const detail = JSON.parse((await run("--order", ACTIVE, "--json")).out) as OrderDetailView;
    expect(detail.secretHash).toBe(SECRET_HASH);
    expect(detail.attempts.map((a) => [a.txHash, a.nonce, a.state])).toEqual([
      [FILL_TX, "2", "confirmed"],
      [REDEEM_TX, "3", "broadcast"],
    ]);
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    const list = JSON.parse((await run("--json")).out) as OrderView[];
    expect(list.map((o) => [o.orderId, o.active])).toEqual([
      [ACTIVE, true],
      [REFUSED, false],
      [SETTLED, false],
    ]);
  });

  it("accepts an id with 0x or upper case, and answers an unknown one with exit 1", async () => {
    expect((await run("--order", `0x${ACTIVE.toUpperCase()}`)).code).toBe(0);
    const unknown = await run("--order", "00".repeat(32));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(`solver orders: the journal has no order ${"00".repeat(32)}`);
  });
});
