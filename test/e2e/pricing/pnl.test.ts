/**
 * `solver pnl` against the chains themselves: the solver's balances on every chain are read before and
 * after a run of swaps in both directions, and their change, valued at the USD prices journaled with the
 * orders, must equal the profit and loss the journal reports.
 *
 * Rounding: none in the comparison. Every leg is an integer amount of smallest units times a decimal
 * price, so its USD value is a finite decimal; `solver pnl --json` reports sums of those exactly, and the
 * balance changes valued at the same prices are compared with them digit for digit. Only the table
 * rounds, to the cent (half away from zero), and that is checked against the exact value too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli.js";
import { command as pnl } from "../../../src/cli/commands/pnl.js";
import { PnlStore } from "../../../src/journal/pnl-store.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { PnlView } from "../../../src/pnl/pnl-view.js";
import { centsUsd, exactUsd, sumUsd, usdValue } from "../../../src/pnl/usd.js";
import { recordingIo } from "../../unit/cli/io.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { BTC, completed } from "../swaps/bitcoin-support.js";
import { solverBalances } from "./support.js";

interface Swap {
  user: number;
  from: string;
  to: string;
  amount: bigint;
  initiate: "bitcoin" | "on-chain";
}

const SWAPS: Swap[] = [
  { user: 0, from: BTC, to: "arbitrum_localnet:wbtc", amount: 1_000_000n, initiate: "bitcoin" },
  {
    user: 1,
    from: "ethereum_localnet:usdc",
    to: "arbitrum_localnet:usdc",
    amount: 100_000_000n,
    initiate: "on-chain",
  },
  {
    user: 2,
    from: "ethereum_localnet:eth",
    to: "arbitrum_localnet:usdc",
    amount: 10n ** 17n,
    initiate: "on-chain",
  },
  { user: 1, from: "ethereum_localnet:wbtc", to: BTC, amount: 1_500_000n, initiate: "on-chain" },
];

describe("solver pnl on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  async function swap(s: Swap): Promise<Order> {
    const user = t.user(s.user);
    const order = await user.createOrder(await user.bestQuote(s.from, s.to, s.amount));
    if (s.initiate === "bitcoin") await user.fundBitcoinSource(order);
    else await user.initiateOnChain(order);
    return user.waitForOrder(order.order_id, (o) => completed(o) || o.status === "Redeemed", {
      timeoutMs: 120_000,
    });
  }

  it("equals the change of the solver's balances over a run of swaps, valued at the journaled prices", async () => {
    const app = t.net.solver!;
    const store = new PnlStore(app.journal.database);
    const before = await solverBalances(t);

    const orders = [...(await Promise.all(SWAPS.slice(0, 3).map(swap))), await swap(SWAPS[3]!)];
    const ids = new Set(orders.map((o) => o.order_id));
    await waitFor(
      () => store.settlements().filter((s) => ids.has(s.orderId)).length === ids.size,
      "every order's profit and loss journaled",
      120_000,
    );
    const after = await solverBalances(t);
    const settlements = store.settlements();
    expect(settlements.map((s) => s.orderId).sort()).toEqual([...ids].sort());

    // Per asset, the journaled legs add up to exactly what the chains show the solver gained or lost.
    const legSums: Record<string, bigint> = {};
    const prices: Record<string, string> = {};
    for (const leg of settlements.flatMap((s) => s.legs)) {
      legSums[leg.asset] = (legSums[leg.asset] ?? 0n) + leg.amount;
      expect(leg.usdPrice).not.toBeNull();
      // The prices did not move during the run: one price per asset.
      expect(prices[leg.asset] ?? leg.usdPrice).toBe(leg.usdPrice);
      prices[leg.asset] = leg.usdPrice!;
    }
    const changes = Object.fromEntries(
      Object.keys(after)
        .map((asset) => [asset, after[asset]! - before[asset]!] as const)
        .filter(([, change]) => change !== 0n),
    );
    expect(changes).toEqual(Object.fromEntries(Object.entries(legSums).filter(([, sum]) => sum !== 0n)));

    // The balance changes valued at those prices equal `solver pnl`'s total, digit for digit.
    const decimals = new Map(
      t.net.solverConfig.chains.flatMap((c) => c.assets.map((a) => [a.id, a.decimals])),
    );
    const balanceUsd = sumUsd(
      Object.entries(changes).map(([asset, change]) =>
        usdValue(change, decimals.get(asset)!, prices[asset]!),
      ),
    );
    const journal = t.net.solverConfig.journal.path;
    const io = recordingIo();
    expect(await runCli(["pnl", "--journal", journal, "--json"], { io, commands: [pnl] })).toBe(0);
    const view = JSON.parse(io.out.join("\n")) as PnlView;
    expect(view.total.orders).toBe(4);
    expect(view.total.unpricedLegs).toBe(0);
    expect(view.total.pnlUsd).toBe(exactUsd(balanceUsd));
    // Quotes charge each order its network fees and the minimum profit (none on the localnet): no
    // order of the run, in any direction, settles at a loss.
    for (const settlement of settlements) {
      const pnlUsd = sumUsd(settlement.legs.map((leg) => usdValue(leg.amount, leg.decimals, leg.usdPrice!)));
      expect(
        pnlUsd.units >= 0n,
        `${settlement.fromAsset} -> ${settlement.toAsset}: ${exactUsd(pnlUsd)} USD`,
      ).toBe(true);
    }
    console.log(`pnl over ${view.total.orders} swaps: ${view.total.pnlUsd} USD (fees ${view.total.feesUsd})`);

    const table = recordingIo();
    await runCli(["pnl", "--journal", journal], { io: table, commands: [pnl] });
    const totals = table.out.join("\n").split("Total, USD:\n")[1]!.split("\n")[1]!.trim().split(/\s+/);
    expect(totals[4]).toBe(centsUsd(balanceUsd));

    const metrics = await app.metrics.registry.getSingleMetricAsString("solver_settled_orders_total");
    expect(
      [...metrics.matchAll(/^solver_settled_orders_total\{[^}]*\} (\d+)$/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      ),
    ).toBe(4);
  });
});
