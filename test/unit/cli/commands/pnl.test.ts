import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { command as pnl } from "../../../../src/cli/commands/pnl.js";
import { Journal } from "../../../../src/journal/journal.js";
import { PnlStore, type PnlLeg } from "../../../../src/journal/pnl-store.js";
import type { PnlView } from "../../../../src/pnl/pnl-view.js";
import { recordingIo } from "../io.js";

const DAY1 = Date.parse("2030-01-01T10:00:00Z");
const DAY2 = Date.parse("2030-01-02T09:00:00Z");
const BTC = "bitcoin_regtest:btc";
const WBTC = "arbitrum_localnet:wbtc";
const USDC = "arbitrum_localnet:usdc";

const leg = (
  kind: PnlLeg["kind"],
  asset: string,
  decimals: number,
  amount: bigint,
  usdPrice: string | null,
): PnlLeg => ({
  kind,
  asset,
  decimals,
  amount,
  usdPrice,
  pricedMs: usdPrice === null ? null : DAY1,
  attemptId: kind === "network_fee" ? 1 : null,
});

/** Three settled orders over two days and two pairs, one with a fee that had no price. */
function writeJournal(): string {
  const path = join(mkdtempSync(join(tmpdir(), "cli-pnl-")), "journal.sqlite");
  const journal = new Journal(path);
  const store = new PnlStore(journal.database);
  store.recordSettlement({
    orderId: "01".repeat(32),
    fromAsset: BTC,
    toAsset: WBTC,
    settledMs: DAY1,
    legs: [
      leg("source_received", BTC, 8, 1_000_000n, "60000"),
      leg("destination_given", WBTC, 8, -997_000n, "60000"),
      leg("network_fee", BTC, 8, -154n, "60000"),
      leg("network_fee", "arbitrum_localnet:eth", 18, -30_000_000_000_000n, "3000"),
    ],
  });
  store.recordSettlement({
    orderId: "02".repeat(32),
    fromAsset: BTC,
    toAsset: USDC,
    settledMs: DAY1 + 1000,
    legs: [
      leg("source_received", BTC, 8, 500_000n, "60000"),
      leg("destination_given", USDC, 6, -299_100_000n, "1"),
      leg("network_fee", "arbitrum_localnet:eth", 18, -1n, null),
    ],
  });
  store.recordSettlement({
    orderId: "03".repeat(32),
    fromAsset: BTC,
    toAsset: WBTC,
    settledMs: DAY2,
    legs: [
      leg("destination_given", WBTC, 8, -500_000n, "61000.5"),
      leg("destination_refunded", WBTC, 8, 500_000n, "61000.5"),
      leg("network_fee", "arbitrum_localnet:eth", 18, -45_000_000_000_000n, "3000"),
    ],
  });
  journal.close();
  return path;
}

const path = writeJournal();

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["pnl", ...args], { io, commands: [pnl] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

describe("solver pnl", () => {
  it("prints exact totals per day, per pair and overall as JSON", async () => {
    const { code, out } = await run("--journal", path, "--json");
    expect(code).toBe(0);
    const view = JSON.parse(out) as PnlView;
    // Order 1: 600 − 598.2 − 0.0924 − 0.09 = 1.6176; order 2: 300 − 299.1 = 0.9 (a fee unpriced);
    // order 3: the refund gives the fill back, 0.135 of fees remain.
    expect(view.total).toEqual({
      orders: 3,
      receivedUsd: "900",
      givenUsd: "-897.3",
      feesUsd: "-0.3174",
      pnlUsd: "2.3826",
      unpricedLegs: 1,
    });
    expect(view.byDay.map((d) => [d.day, d.orders, d.pnlUsd])).toEqual([
      ["2030-01-01", 2, "2.5176"],
      ["2030-01-02", 1, "-0.135"],
    ]);
    expect(view.byPair.map((p) => [p.pair, p.orders, p.pnlUsd])).toEqual([
      ["bitcoin_regtest:btc -> arbitrum_localnet:usdc", 1, "0.9"],
      ["bitcoin_regtest:btc -> arbitrum_localnet:wbtc", 2, "1.4826"],
    ]);
    expect(view.orders).toBeUndefined();
  });

  it("prints tables rounded to the cent, with each order on request", async () => {
    const { code, out } = await run("--journal", path, "--orders");
    expect(code).toBe(0);
    expect(out).toMatch(/^By day \(UTC\), USD:\nDAY\s+ORDERS\s+RECEIVED\s+GIVEN\s+FEES\s+PNL\s+UNPRICED\n/);
    expect(out).toMatch(/2030-01-01\s+2\s+900\.00\s+-897\.30\s+-0\.18\s+2\.52\s+1\n/);
    expect(out).toMatch(
      /bitcoin_regtest:btc -> arbitrum_localnet:wbtc\s+2\s+600\.00\s+-598\.20\s+-0\.32\s+1\.48\s+0/,
    );
    expect(out).toMatch(
      /Total, USD:\nORDERS\s+RECEIVED\s+GIVEN\s+FEES\s+PNL\s+UNPRICED\n3\s+900\.00\s+-897\.30\s+-0\.32\s+2\.38\s+1/,
    );
    expect(out).toMatch(
      new RegExp(
        `${"03".repeat(32)}\\s+bitcoin_regtest:btc -> arbitrum_localnet:wbtc\\s+2030-01-02 09:00:00\\s+-0\\.14`,
      ),
    );
  });

  it("lists each order's legs and prices in JSON, and filters by day", async () => {
    const { out } = await run("--journal", path, "--json", "--orders", "--since", "2030-01-02");
    const view = JSON.parse(out) as PnlView;
    expect(view.total.orders).toBe(1);
    expect(view.orders?.[0]?.legs[0]).toEqual({
      kind: "destination_given",
      asset: WBTC,
      amount: "-500000",
      usdPrice: "61000.5",
      usd: "-305.0025",
    });
  });

  it("says so when nothing has settled, and refuses a malformed day", async () => {
    const empty = join(mkdtempSync(join(tmpdir(), "cli-pnl-")), "journal.sqlite");
    new Journal(empty).close();
    expect((await run("--journal", empty)).out).toBe("No settled orders in the journal yet.");
    const bad = await run("--journal", path, "--since", "yesterday");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--since must be a day as YYYY-MM-DD, not "yesterday"/);
  });
});
