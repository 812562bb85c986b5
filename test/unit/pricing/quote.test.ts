import { describe, expect, it } from "vitest";
import { quoteFor, type Quote } from "../../../src/pricing/quote.js";
import type { QuoteRefusal } from "../../../src/pricing/refusal.js";
import { BTC, ETH, SOLVER_ID, USDC, harness, strategy } from "./fixtures.js";

const BTC_USDC = strategy(BTC, USDC, {
  feeBps: 30,
  spreadBps: 20,
  fixedFee: 1_500_000n,
  estimatedTimeSeconds: 1800,
});

function expectRefusal(answer: Quote | QuoteRefusal, reason: string, message: RegExp): void {
  expect(answer.ok).toBe(false);
  if (answer.ok) return;
  expect(answer.reason).toBe(reason);
  expect(answer.message).toMatch(message);
}

describe("quoteFor: quotes", () => {
  it("prices 1 BTC -> USDC with fee, spread and fixed fee into a wire quote item", async () => {
    const { deps } = harness({ strategies: [BTC_USDC] });
    const answer = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, deps);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.item).toEqual({
      source: { asset: BTC.id, amount: "100000000", display: "1", value: "65000.25" },
      destination: { asset: USDC.id, amount: "64674138751", display: "64674.138751", value: "64674.13" },
      solver_id: SOLVER_ID,
      estimated_time: 1800,
      slippage: 20,
      fee: 30,
      fixed_fee: "1.5",
    });
    expect(answer.priced.toAmount).toBe(64_674_138_751n);
  });

  it("prices 6 -> 18 decimals and rounds the amount and its value down", async () => {
    const { deps } = harness({ strategies: [strategy(USDC, ETH)] });
    const answer = await quoteFor({ from: USDC.id, to: ETH.id, fromAmount: 1_000_000_000n }, deps);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.item.source).toEqual({
      asset: USDC.id,
      amount: "1000000000",
      display: "1000",
      value: "1000.00",
    });
    expect(answer.item.destination).toEqual({
      asset: ETH.id,
      amount: "333277787035494084",
      display: "0.333277787035494084",
      value: "999.99",
    });
    expect(answer.item.fixed_fee).toBe("0");
  });

  it("prices 18 -> 8 decimals", async () => {
    const { deps } = harness({
      strategies: [strategy(ETH, BTC, { feeBps: 25, spreadBps: 10, fixedFee: 1000n })],
    });
    const answer = await quoteFor({ from: ETH.id, to: BTC.id, fromAmount: 10n ** 18n }, deps);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.item.destination.amount).toBe("4598991");
    expect(answer.item.destination.display).toBe("0.04598991");
    expect(answer.item.fixed_fee).toBe("0.00001");
  });
});

describe("quoteFor: refusals", () => {
  it("refuses a pair without a strategy, including the reverse of a quoted pair", async () => {
    const { deps } = harness({ strategies: [BTC_USDC] });
    const answer = await quoteFor({ from: USDC.id, to: BTC.id, fromAmount: 1_000_000n }, deps);
    expectRefusal(answer, "no_strategy", /ethereum:USDC -> bitcoin:BTC/);
  });

  it("refuses a strategy whose asset is not configured", async () => {
    const { deps } = harness({ strategies: [{ ...BTC_USDC, to: "solana:SOL" }] });
    const answer = await quoteFor({ from: BTC.id, to: "solana:SOL", fromAmount: 100_000_000n }, deps);
    expectRefusal(answer, "unknown_asset", /solana:SOL/);
  });

  it("refuses below the minimum and above the maximum of the strategy", async () => {
    const { deps } = harness({ strategies: [{ ...BTC_USDC, minAmount: 50_000n, maxAmount: 200_000_000n }] });
    const low = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 49_999n }, deps);
    expectRefusal(low, "below_min", /0\.00049999 bitcoin:BTC \(49999\) is below the minimum 0\.0005 /);
    const high = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 200_000_001n }, deps);
    expectRefusal(high, "above_max", /above the maximum 2 bitcoin:BTC \(200000000\)/);
    const edge = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 200_000_000n }, deps);
    expect(edge.ok).toBe(true);
  });

  it("refuses above the per-order limit of the source asset", async () => {
    const { deps } = harness({
      strategies: [BTC_USDC],
      limits: { maxOrderAmount: { [BTC.id]: 10_000_000n } },
    });
    const answer = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 10_000_001n }, deps);
    expectRefusal(answer, "above_order_limit", /per-order limit 0\.1 bitcoin:BTC/);
  });

  it("refuses when a price is missing", async () => {
    const { deps } = harness({ strategies: [BTC_USDC], prices: { [USDC.id]: "1" } });
    const answer = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, deps);
    expectRefusal(answer, "price_unavailable", /bitcoin:BTC/);
  });

  it("refuses when nothing is left after fees", async () => {
    const { deps } = harness({ strategies: [BTC_USDC] });
    // 2300 sats = 1.495 USDC, about 1.4875 after fee and spread: less than the 1.5 USDC fixed fee
    const answer = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 2300n }, deps);
    expectRefusal(answer, "nothing_after_fees", /2300 smallest units of bitcoin:BTC/);
  });

  it("refuses when inventory above the floor and committed amounts is short", async () => {
    const h = harness({
      strategies: [BTC_USDC],
      balances: { [USDC.id]: 100_000_000_000n },
      limits: { inventoryFloor: { [USDC.id]: 20_000_000_000n } },
    });
    h.committed.set(USDC.id, 15_325_861_249n);
    // 100000 - 20000 - 15325.861249 = 64674.138751 USDC: exactly the quote.
    const fits = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, h.deps);
    expect(fits.ok).toBe(true);
    h.committed.set(USDC.id, 15_325_861_250n);
    const short = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, h.deps);
    expectRefusal(short, "insufficient_inventory", /64674\.138751 ethereum:USDC.*64674\.13875 ethereum:USDC/);
  });

  it("refuses when balances cannot be read", async () => {
    const h = harness({ strategies: [BTC_USDC] });
    h.balances.failNext = new Error("rpc unreachable");
    const answer = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, h.deps);
    expectRefusal(answer, "inventory_unavailable", /rpc unreachable/);
  });

  it("refuses when the fill would push value in flight over the limit", async () => {
    // 0.5 ETH in flight = $1500.25; the quote adds $64674.138751 -> 6617439 cents (rounded up).
    const h = harness({ strategies: [BTC_USDC], limits: { maxInFlightUsdCents: 6_617_439n } });
    h.committed.set(ETH.id, 5n * 10n ** 17n);
    const fits = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, h.deps);
    expect(fits.ok).toBe(true);
    h.committed.set(ETH.id, 5n * 10n ** 17n + 1n);
    const over = await quoteFor({ from: BTC.id, to: USDC.id, fromAmount: 100_000_000n }, h.deps);
    expectRefusal(over, "exposure_limit", /\$66174\.40 in flight, above the limit of \$66174\.39/);
  });
});
