import { describe, expect, it } from "vitest";
import type { InventoryCurve } from "../../../src/config/types.js";
import {
  curveExtraBps,
  curveMinExtraBps,
  effectiveFeeBps,
  inventoryRatioBps,
} from "../../../src/pricing/inventory-curve.js";
import { checkOrderAgainstQuote } from "../../../src/pricing/order-check.js";
import { quoteFor } from "../../../src/pricing/quote.js";
import { BTC, USDC, harness, strategy } from "./fixtures.js";

/** Target 1,000,000 USDC: +150 bps when empty, +50 at half, 0 at target, −10 at twice the target. */
const CURVE: InventoryCurve = {
  target: 1_000_000_000_000n,
  points: [
    { ratioBps: 0, extraBps: 150 },
    { ratioBps: 5_000, extraBps: 50 },
    { ratioBps: 10_000, extraBps: 0 },
    { ratioBps: 20_000, extraBps: -10 },
  ],
};

describe("inventory curve", () => {
  it("interpolates linearly between points and stays flat beyond them", () => {
    expect(curveExtraBps(CURVE, 0n)).toBe(150);
    expect(curveExtraBps(CURVE, 250_000_000_000n)).toBe(100);
    expect(curveExtraBps(CURVE, 500_000_000_000n)).toBe(50);
    expect(curveExtraBps(CURVE, 750_000_000_000n)).toBe(25);
    expect(curveExtraBps(CURVE, 1_000_000_000_000n)).toBe(0);
    expect(curveExtraBps(CURVE, 1_500_000_000_000n)).toBe(-5);
    expect(curveExtraBps(CURVE, 9_000_000_000_000n)).toBe(-10);
    expect(curveExtraBps(CURVE, -5n)).toBe(150);
  });

  it("rounds toward the wider fee", () => {
    // Ratio 3333 bps (floored): 150 − 100 × 3333/5000 = 83.34 → 84.
    expect(inventoryRatioBps(CURVE, 333_333_333_333n)).toBe(3_333n);
    expect(curveExtraBps(CURVE, 333_333_333_333n)).toBe(84);
    // Ratio 13333: −10 × 3333/10000 = −3.333 → −3.
    expect(curveExtraBps(CURVE, 1_333_333_333_333n)).toBe(-3);
  });

  it("keeps the fee within 0..10000 bps and knows its most generous point", () => {
    expect(effectiveFeeBps(5, -10)).toBe(0);
    expect(effectiveFeeBps(9_990, 150)).toBe(10_000);
    expect(curveMinExtraBps(CURVE)).toBe(-10);
  });
});

describe("quotes that protect the inventory", () => {
  const pair = strategy(BTC, USDC, { feeBps: 30 });
  const request = { from: BTC.id, to: USDC.id, fromAmount: 10_000_000n };

  async function quoteAt(usdcHeld: bigint) {
    const { deps } = harness({
      strategies: [pair],
      curves: { [USDC.id]: CURVE },
      balances: { [USDC.id]: usdcHeld },
    });
    const answer = await quoteFor(request, deps);
    if (!answer.ok) throw new Error(answer.message);
    return answer;
  }

  it("a falling inventory widens the quote, and a full one narrows it", async () => {
    const full = await quoteAt(2_000_000_000_000n);
    const atTarget = await quoteAt(1_000_000_000_000n);
    const half = await quoteAt(500_000_000_000n);
    const low = await quoteAt(100_000_000_000n);
    // 0.1 BTC at 65000.25 = 6500.025 USDC gross; fee 30 + extra bps.
    expect([full, atTarget, half, low].map((q) => q.item.fee)).toEqual([20, 30, 80, 160]);
    expect(full.priced.toAmount).toBe(6_487_024_950n);
    expect(atTarget.priced.toAmount).toBe(6_480_524_925n);
    expect(half.priced.toAmount).toBe(6_448_024_800n);
    expect(low.priced.toAmount).toBe(6_396_024_600n);
  });

  it("counts promised fills out of the inventory", async () => {
    const { deps, committed } = harness({
      strategies: [pair],
      curves: { [USDC.id]: CURVE },
      balances: { [USDC.id]: 1_000_000_000_000n },
    });
    committed.set(USDC.id, 500_000_000_000n);
    const answer = await quoteFor(request, deps);
    expect(answer.ok && answer.item.fee).toBe(80);
  });

  it("at fill time the order is held to the curve's most generous point, so its own inventory never refuses it", async () => {
    const quoted = await quoteAt(2_000_000_000_000n);
    const { deps } = harness({
      strategies: [pair],
      curves: { [USDC.id]: CURVE },
      balances: { [USDC.id]: 100_000_000_000n },
    });
    const order = {
      fromAsset: BTC.id,
      toAsset: USDC.id,
      fromAmount: request.fromAmount,
      toAmount: quoted.priced.toAmount,
    };
    const verdict = await checkOrderAgainstQuote(order, deps, 0);
    expect(verdict.ok).toBe(true);
  });
});
