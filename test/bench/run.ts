/**
 * Benchmarks of the solver's hot paths: planning an order, journaling an action before broadcast,
 * pricing a quote, and a burst of 1,000 concurrent quotes over HTTP on live prices. Reports medians over
 * repeated rounds; machines are shared and noisy, so compare ratios between runs rather than absolute
 * numbers.
 *
 *   npm run bench
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRequest } from "../../src/chains/chain.js";
import { Journal } from "../../src/journal/journal.js";
import { EXCHANGE_DEFAULTS } from "../../src/config/sections/prices.js";
import { createPricing } from "../../src/pricing/pricing.js";
import { plan } from "../../src/solver/planner.js";
import { makeOrder, planInput } from "../support/order-fixture.js";
import { percentile, quoteBurst } from "../support/quote-burst.js";
import { chainsOf } from "../support/coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../support/network-fees.js";

interface Result {
  name: string;
  unit: string;
  medianPerSecond: number;
  rounds: number[];
}

async function measure(
  name: string,
  unit: string,
  opsPerRound: number,
  round: () => Promise<void> | void,
): Promise<Result> {
  await round(); // warm-up
  const rates: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = process.hrtime.bigint();
    await round();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates.push(opsPerRound / seconds);
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return { name, unit, medianPerSecond: sorted[Math.floor(sorted.length / 2)] ?? 0, rounds: rates };
}

function planning(): Promise<Result> {
  const inputs = Array.from({ length: 10_000 }, (_, i) => {
    const order = makeOrder();
    order.order_id = i.toString(16).padStart(64, "0");
    return planInput(order);
  });
  return measure("planner: decide one order", "plans", inputs.length, () => {
    for (const input of inputs) plan(input);
  });
}

function journaling(): Promise<Result> {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "bench-")), "journal.sqlite"));
  let n = 0;
  const perRound = 200;
  return measure("journal: claim + record signed + mark broadcast (fsync)", "actions", perRound, () => {
    for (let i = 0; i < perRound; i++) {
      const order = makeOrder();
      order.order_id = (n++).toString(16).padStart(64, "0");
      journal.upsertOrder(order);
      const request: ActionRequest = {
        kind: "fill",
        orderId: order.order_id,
        params: {
          chain: "arbitrum_localnet",
          asset: "arbitrum_localnet:usdc",
          swapId: order.destination_swap.swap_id,
          initiator: order.destination_swap.initiator,
          redeemer: order.destination_swap.redeemer,
          secretHash: order.destination_swap.secret_hash,
          timelock: 600n,
          amount: 990_000n,
        },
      };
      const claim = journal.claimAction(request, Date.now(), {
        backing: { chain: "ethereum_localnet", swapId: order.order_id },
        terms: { source: request.params, destination: request.params, refundAddress: "" },
        lockIds: [],
      });
      if (!claim.ok) throw new Error(`bench claim refused: ${claim.reason}`);
      const { action } = claim;
      const attempt = journal.recordSigned([action.id], {
        chain: "arbitrum_localnet",
        txHash: `0x${n.toString(16).padStart(64, "0")}`,
        raw: "0x02f8",
        nonce: BigInt(n),
        terms: { family: "evm", maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 1n, gas: 21_000n },
      });
      journal.markBroadcast(attempt.id);
    }
  });
}

async function quoting(): Promise<Result> {
  const asset = (chain: string, symbol: string, decimals: number) => ({
    id: `${chain}:${symbol}`,
    chain,
    symbol,
    decimals,
    tokenAddress: "0x0000000000000000000000000000000000000001",
    htlcAddress: "0x0000000000000000000000000000000000000002",
  });
  const pricing = createPricing(
    {
      solver: { id: "ab".repeat(20) },
      chains: chainsOf(asset("a", "usdc", 6), asset("b", "wbtc", 8)),
      fixedPrices: { "a:usdc": "1", "b:wbtc": "60000" },
      strategies: [
        {
          from: "a:usdc",
          to: "b:wbtc",
          minAmount: 1n,
          maxAmount: 10n ** 15n,
          feeBps: 30,
          fixedFee: 10n,
          spreadBps: 5,
          priceSource: "fixed",
          estimatedTimeSeconds: 30,
          enabled: true,
        },
      ],
      limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
      prices: { refreshMs: 1_000, exchanges: EXCHANGE_DEFAULTS, assets: {} },
      inventoryCurves: {},
      networkFees: NO_MIN_PROFIT,
    },
    {
      balances: { balance: async () => 10n ** 12n },
      committed: () => 0n,
      balanceCacheMs: 60_000,
      ...freeNetworkIo([{ name: "a" }, { name: "b" }]),
    },
  );
  await pricing.start();
  const perRound = 5_000;
  return measure("pricing: quote one request", "quotes", perRound, async () => {
    for (let i = 0; i < perRound; i++)
      await pricing.quote({ from: "a:usdc", to: "b:wbtc", fromAmount: 1_000_000n + BigInt(i) });
  });
}

const results = [await planning(), await journaling(), await quoting()];
for (const r of results) {
  const spread = Math.max(...r.rounds) / Math.min(...r.rounds);
  console.log(
    `${r.name}: median ${Math.round(r.medianPerSecond).toLocaleString("en")} ${r.unit}/s (max/min of rounds ${spread.toFixed(2)})`,
  );
}

// Quotes arrive in bursts: 1,000 at once over HTTP, prices live (feed and three tickers, from memory).
for (let round = 1; round <= 3; round++) {
  const burst = await quoteBurst(1_000);
  console.log(
    `pricing: 1000 concurrent quotes over HTTP (live prices), round ${round}: ${burst.totalMs.toFixed(0)} ms, ` +
      `p50 ${percentile(burst.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(burst.latenciesMs, 99).toFixed(1)} ms; ` +
      `the same 1000 in process ${burst.inProcessMs.toFixed(0)} ms; price reads during the burst: ${burst.readsDuringBurst}`,
  );
}
