import { describe, expect, it } from "vitest";
import { checkOrderAgainstQuote, InvalidToleranceError } from "../../../src/pricing/order-check.js";
import { PriceUnavailableError } from "../../../src/pricing/price-source.js";
import { refusalOutcome } from "../../../src/pricing/refusal.js";
import { BTC, ETH, PRICES, USDC, harness, strategy } from "./fixtures.js";

// 1 ETH -> USDC with 50 bps fee: 3000.5 * 0.995 = 2985.4975 USDC
const ETH_USDC = strategy(ETH, USDC, { feeBps: 50 });
const QUOTED = 2_985_497_500n;
const order = (toAmount: bigint) => ({
  fromAsset: ETH.id,
  toAsset: USDC.id,
  fromAmount: 10n ** 18n,
  toAmount,
});

describe("checkOrderAgainstQuote", () => {
  it("accepts an order at or below today's quote", async () => {
    const { deps } = harness({ strategies: [ETH_USDC] });
    const atQuote = await checkOrderAgainstQuote(order(QUOTED), deps, 0);
    expect(atQuote.ok).toBe(true);
    if (atQuote.ok) expect(atQuote.requoted.toAmount).toBe(QUOTED);
    expect((await checkOrderAgainstQuote(order(QUOTED - 1n), deps, 0)).ok).toBe(true);
  });

  it("accepts up to the tolerance above today's quote and refuses one unit more", async () => {
    const { deps } = harness({ strategies: [ETH_USDC] });
    const ceiling = (QUOTED * 10_030n) / 10_000n; // 30 bps: 2994.4539925 -> 2994453992
    expect(ceiling).toBe(2_994_453_992n);
    expect((await checkOrderAgainstQuote(order(ceiling), deps, 30)).ok).toBe(true);
    const over = await checkOrderAgainstQuote(order(ceiling + 1n), deps, 30);
    expect(over).toMatchObject({ ok: false, reason: "price_moved" });
    if (!over.ok)
      expect(over.message).toMatch(/2994\.453993 ethereum:USDC.*2985\.4975 ethereum:USDC.*30 bps/);
  });

  it("refuses an order quoted before the price fell", async () => {
    const quotedThen = harness({ strategies: [ETH_USDC] });
    const now = harness({ strategies: [ETH_USDC], prices: { ...PRICES, [ETH.id]: "2900" } });
    const then = await checkOrderAgainstQuote(order(QUOTED), quotedThen.deps, 100);
    expect(then.ok).toBe(true);
    const refused = await checkOrderAgainstQuote(order(QUOTED), now.deps, 100);
    expect(refused).toMatchObject({ ok: false, reason: "price_moved" });
  });

  it("re-prices from the live sources at fill time: a price that moved since the quote refuses the fill", async () => {
    let ethPrice = "3000.5";
    const live = { usdPrice: async (id: string) => (id === ETH.id ? ethPrice : (PRICES[id] ?? "1")) };
    const { deps } = harness({ strategies: [{ ...ETH_USDC, priceSource: "live" }], live });
    expect((await checkOrderAgainstQuote(order(QUOTED), deps, 50)).ok).toBe(true);
    ethPrice = "2980";
    const refused = await checkOrderAgainstQuote(order(QUOTED), deps, 50);
    expect(refused).toMatchObject({ ok: false, reason: "price_moved" });
    expect(refusalOutcome("price_moved")).toBe("refuse");
  });

  it("passes on the live sources' refusals, which make the order wait", async () => {
    const live = {
      usdPrice: async (id: string): Promise<string> => {
        throw new PriceUnavailableError(id, "sources disagree by 150 bps, max 100", "price_sources_disagree");
      },
    };
    const { deps } = harness({ strategies: [{ ...ETH_USDC, priceSource: "live" }], live });
    const verdict = await checkOrderAgainstQuote(order(QUOTED), deps, 50);
    expect(verdict).toMatchObject({ ok: false, reason: "price_sources_disagree" });
    expect(refusalOutcome("price_sources_disagree")).toBe("wait");
  });

  it("passes on refusals of the pair and of the limits", async () => {
    const { deps } = harness({
      strategies: [ETH_USDC],
      limits: { maxOrderAmount: { [ETH.id]: 10n ** 17n } },
    });
    expect(await checkOrderAgainstQuote(order(QUOTED), deps, 0)).toMatchObject({
      reason: "above_order_limit",
    });
    const reverse = { fromAsset: USDC.id, toAsset: ETH.id, fromAmount: 1_000_000n, toAmount: 1n };
    expect(await checkOrderAgainstQuote(reverse, deps, 0)).toMatchObject({ reason: "no_strategy" });
    const wrongChain = { fromAsset: ETH.id, toAsset: BTC.id, fromAmount: 10n ** 18n, toAmount: 1n };
    expect(await checkOrderAgainstQuote(wrongChain, deps, 0)).toMatchObject({ reason: "no_strategy" });
  });

  it("checks inventory for the order's amount, not today's lower quote", async () => {
    const { deps } = harness({ strategies: [ETH_USDC], balances: { [USDC.id]: QUOTED + 10n } });
    expect((await checkOrderAgainstQuote(order(QUOTED + 10n), deps, 100)).ok).toBe(true);
    const short = await checkOrderAgainstQuote(order(QUOTED + 11n), deps, 100);
    expect(short).toMatchObject({ ok: false, reason: "insufficient_inventory" });
  });

  it("rejects a negative or fractional tolerance", async () => {
    const { deps } = harness({ strategies: [ETH_USDC] });
    await expect(checkOrderAgainstQuote(order(QUOTED), deps, -1)).rejects.toThrow(InvalidToleranceError);
    await expect(checkOrderAgainstQuote(order(QUOTED), deps, 0.5)).rejects.toThrow(/toleranceBps/);
  });
});
