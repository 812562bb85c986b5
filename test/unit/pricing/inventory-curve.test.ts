import { describe, expect, it } from "vitest";
import type { InventoryCurve } from "../../../src/config/types.js";
import { curveExtraBps, effectiveFeeBps, inventoryRatioBps } from "../../../src/pricing/inventory-curve.js";
import { checkOrderAgainstQuote, checkOrderPrice } from "../../../src/pricing/order-check.js";
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

  it("keeps the fee within 0..10000 bps", () => {
    expect(effectiveFeeBps(5, -10)).toBe(0);
    expect(effectiveFeeBps(9_990, 150)).toBe(10_000);
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

  /** The fill check of an order quoted at full inventory, with the inventory and tolerance given. */
  async function fillOfFullQuote(usdcHeld: bigint, toleranceBps: number, promised = 0n) {
    const quoted = await quoteAt(2_000_000_000_000n);
    const { deps, committed } = harness({
      strategies: [pair],
      curves: { [USDC.id]: CURVE },
      balances: { [USDC.id]: usdcHeld },
    });
    committed.set(USDC.id, promised);
    const order = {
      fromAsset: BTC.id,
      toAsset: USDC.id,
      fromAmount: request.fromAmount,
      toAmount: quoted.priced.toAmount,
    };
    return checkOrderAgainstQuote(order, deps, toleranceBps);
  }

  it("prices a fill at the curve's point for the inventory of now, where quotes read it", async () => {
    // At the inventory it was quoted at, the order pays exactly the quoted fee: no tolerance needed.
    expect((await fillOfFullQuote(2_000_000_000_000n, 0)).ok).toBe(true);
    // Inventory fell to a tenth of the target since: the curve asks 160 bps, not the quoted 20.
    const low = await fillOfFullQuote(100_000_000_000n, 0);
    expect(low).toMatchObject({ ok: false, reason: "price_moved" });
    if (!low.ok) expect(low.message).toContain("6396.0246 ethereum:USDC");
    // 6487.02495 / 6396.0246 is 142.3 bps above: the tolerance must cover the curve's own move.
    expect((await fillOfFullQuote(100_000_000_000n, 142)).ok).toBe(false);
    expect((await fillOfFullQuote(100_000_000_000n, 143)).ok).toBe(true);
    // Too little to carry the order at all: it waits for inventory, whatever the curve asks there.
    expect(await fillOfFullQuote(1_000_000_000n, 0)).toMatchObject({ reason: "insufficient_inventory" });
  });

  it("counts fills already promised: a burst quoted at full inventory pays more as it is filled", async () => {
    // Held at twice the target, but 1.9 times the target already promised to earlier fills of the burst.
    expect((await fillOfFullQuote(2_000_000_000_000n, 0, 0n)).ok).toBe(true);
    expect(await fillOfFullQuote(2_000_000_000_000n, 0, 1_900_000_000_000n)).toMatchObject({
      reason: "price_moved",
    });
  });

  it("reads the curve at the inventory the fill gate gives, when it gives one", async () => {
    const quoted = await quoteAt(2_000_000_000_000n);
    const { deps } = harness({
      strategies: [pair],
      curves: { [USDC.id]: CURVE },
      balances: { [USDC.id]: 2_000_000_000_000n },
    });
    const order = {
      fromAsset: BTC.id,
      toAsset: USDC.id,
      fromAmount: request.fromAmount,
      toAmount: quoted.priced.toAmount,
    };
    expect((await checkOrderPrice(order, deps, 0)).ok).toBe(true);
    const atGateFigure = await checkOrderPrice(order, deps, 0, 100_000_000_000n);
    expect(atGateFigure).toMatchObject({ ok: false, reason: "price_moved" });
    if (!atGateFigure.ok) expect(atGateFigure.message).toContain("6396.0246 ethereum:USDC");
  });
});
