/**
 * Network fees in quotes and fill checks: the quote's fixed_fee states what was charged, an amount the
 * fees eat refuses, a stale or missing estimate refuses rather than pricing at zero, and a fill whose
 * fees rose beyond what it leaves for them waits.
 */
import { describe, expect, it } from "vitest";
import type { NetworkFeeEstimate } from "../../../../src/chains/chain.js";
import { checkOrderAgainstQuote } from "../../../../src/pricing/order-check.js";
import type { NetworkFeeFacts, NetworkFeeSettings } from "../../../../src/pricing/network-fees/facts.js";
import { NetworkFees } from "../../../../src/pricing/network-fees/view.js";
import { FixedPriceSource } from "../../../../src/pricing/price-source.js";
import { quoteFor, type QuoteDeps } from "../../../../src/pricing/quote.js";
import { refusalOutcome } from "../../../../src/pricing/refusal.js";
import { NO_MIN_PROFIT } from "../../../support/network-fees.js";
import { BTC, ETH, PRICES, USDC, harness, strategy } from "../fixtures.js";

const NOW = 1_000_000;
/** The USDC chain pays its fees in ETH, the Bitcoin chain in BTC. */
const FEE_COINS = { ethereum: ETH.id, bitcoin: BTC.id };

/** Every action of a chain costs `each` smallest units of its coin, all of it per transaction. */
function flat(each: bigint): NetworkFeeEstimate {
  const fee = { perTransaction: each, perAction: 0n };
  return { fill: fee, redeem: fee, refund: fee };
}

function facts(ethereum: bigint, bitcoin: bigint, atMs = NOW): NetworkFeeFacts {
  return {
    readings: new Map([
      ["ethereum", { last: { fees: flat(ethereum), atMs }, error: null }],
      ["bitcoin", { last: { fees: flat(bitcoin), atMs }, error: null }],
    ]),
    batches: new Map(),
  };
}

function depsWith(
  current: () => NetworkFeeFacts,
  settings: Partial<NetworkFeeSettings> = {},
  now = () => NOW,
): QuoteDeps {
  const { deps } = harness({ strategies: [strategy(BTC, USDC, { feeBps: 30 })] });
  return {
    ...deps,
    networkFees: new NetworkFees({
      settings: { ...NO_MIN_PROFIT, maxAgeMs: 60_000, ...settings },
      facts: current,
      feeCoins: FEE_COINS,
      assets: deps.assets,
      prices: new FixedPriceSource(PRICES),
      now,
    }),
  };
}

// 0.001 ETH at 3000.5 is 3.0005 USDC; 1,000 sats at 65000.25 is 0.6500025 USDC.
const FILL_WEI = 10n ** 15n;
const REDEEM_SATS = 1_000n;
const request = { from: BTC.id, to: USDC.id, fromAmount: 100_000n };
// 0.001 BTC at 65000.25, less 30 bps: 64.80524925 USDC.
const BEFORE_NETWORK = 64_805_249n;

describe("quotes with network fees", () => {
  it("take off the fill, the redeem and the refund at its probability, and state them in fixed_fee", async () => {
    const deps = depsWith(() => facts(FILL_WEI, REDEEM_SATS), {
      refundProbabilityBps: 1_000,
      minProfitUsdCents: 50n,
    });
    const quote = await quoteFor(request, deps);
    if (!quote.ok) throw new Error(quote.message);
    // 3.0005 + 0.6500025 + 10 % of 3.0005 = 3.9505525 USDC, rounded up; 0.50 USDC of profit.
    expect(quote.priced.charge.networkFee).toBe(3_950_553n);
    expect(quote.priced.charge.minProfit).toBe(500_000n);
    expect(quote.priced.toAmount).toBe(BEFORE_NETWORK - 4_450_553n);
    expect(quote.item.destination.amount).toBe(String(BEFORE_NETWORK - 4_450_553n));
    expect(quote.item.fixed_fee).toBe("4.450553");
  });

  it("refuse an amount its network fees eat, with the figures in the message", async () => {
    const deps = depsWith(() => facts(FILL_WEI * 100n, REDEEM_SATS));
    const refused = await quoteFor(request, deps);
    expect(refused).toMatchObject({ ok: false, reason: "network_fees" });
    if (!refused.ok)
      expect(refused.message).toMatch(/64\.805249 ethereum:USDC.*network fees 300\.700003 ethereum:USDC/);
  });

  it("refuse on a missing or stale estimate, naming the chain, and never price it at zero", async () => {
    const missing = depsWith(() => ({
      readings: new Map([["bitcoin", { last: null, error: "connect ECONNREFUSED" }]]),
      batches: new Map(),
    }));
    const none = await quoteFor(request, missing);
    expect(none).toMatchObject({ ok: false, reason: "network_fee_unavailable" });
    if (!none.ok) expect(none.message).toMatch(/chain (ethereum|bitcoin)/);

    const stale = await quoteFor(
      request,
      depsWith(() => facts(FILL_WEI, REDEEM_SATS, NOW - 60_001)),
    );
    expect(stale).toMatchObject({ ok: false, reason: "network_fee_unavailable" });
    if (!stale.ok) expect(stale.message).toContain("60001 ms old, more than 60000 ms");
    expect(
      (
        await quoteFor(
          request,
          depsWith(() => facts(FILL_WEI, REDEEM_SATS, NOW - 60_000)),
        )
      ).ok,
    ).toBe(true);
    expect(refusalOutcome("network_fee_unavailable")).toBe("wait");
  });

  it("refuse when a chain's coin has no price", async () => {
    const deps = depsWith(() => facts(FILL_WEI, REDEEM_SATS));
    const unpriced = {
      ...deps,
      networkFees: new NetworkFees({
        settings: { ...NO_MIN_PROFIT, maxAgeMs: 60_000 },
        facts: () => facts(FILL_WEI, REDEEM_SATS),
        feeCoins: FEE_COINS,
        assets: deps.assets,
        prices: new FixedPriceSource({ ...PRICES, [ETH.id]: "0" }),
        now: () => NOW,
      }),
    };
    expect(await quoteFor(request, unpriced)).toMatchObject({ ok: false, reason: "price_unavailable" });
  });
});

describe("the fill check with network fees", () => {
  it("fills at the quoted fees, and waits once fees rose beyond what the order leaves for them and the tolerance", async () => {
    let current = facts(FILL_WEI, REDEEM_SATS);
    const deps = depsWith(() => current, { lossToleranceUsdCents: 100n });
    const quote = await quoteFor(request, deps);
    if (!quote.ok) throw new Error(quote.message);
    const order = {
      fromAsset: BTC.id,
      toAsset: USDC.id,
      fromAmount: request.fromAmount,
      toAmount: quote.priced.toAmount,
    };
    expect((await checkOrderAgainstQuote(order, deps, 0)).ok).toBe(true);

    // The fill and refund cost 0.000333 ETH more each: 0.999 + 0 USDC unpaid, within the 1 USD tolerance.
    current = facts(FILL_WEI + 333_000_000_000_000n, REDEEM_SATS);
    expect((await checkOrderAgainstQuote(order, deps, 0)).ok).toBe(true);

    // Tenfold: 27 USDC more than the order leaves for fees.
    current = facts(FILL_WEI * 10n, REDEEM_SATS);
    const waiting = await checkOrderAgainstQuote(order, deps, 0);
    expect(waiting).toMatchObject({ ok: false, reason: "network_fees" });
    if (!waiting.ok)
      expect(waiting.message).toMatch(/unpaid, more than the loss tolerance of 1 ethereum:USDC/);
    expect(refusalOutcome("network_fees")).toBe("wait");

    // Fees fell back: the same order fills.
    current = facts(FILL_WEI, REDEEM_SATS);
    expect((await checkOrderAgainstQuote(order, deps, 0)).ok).toBe(true);
  });
});
