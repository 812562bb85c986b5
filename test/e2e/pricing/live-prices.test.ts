/**
 * Live prices on the localnet: the solver quotes from the median of an on-chain feed (a TestPriceFeed
 * on each anvil chain) and three exchange tickers (the local ticker server), stops quoting an asset whose
 * sources are stale or disagree, and refuses a fill whose price moved after the order was made,
 * handing a Bitcoin source its instant refund.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { refusalOutcome } from "../../../src/pricing/refusal.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { decisionBeforeInstantRefund } from "../../support/decisions.js";
import { actionsOf, BTC } from "../swaps/bitcoin-support.js";
import { priceOf, quoteRefusal, solverBalances } from "./support.js";
import { chargedUnits } from "../../support/network-fees.js";

const USDC = "ethereum_localnet:usdc";

describe("live prices on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterEach(async () => {
    // Every test leaves the prices as the localnet started them.
    await t.net.priceFeeds.set("btc", "60000");
    await t.net.priceFeeds.set("wbtc", "60000");
    t.net.tickers.set("BTC", "60000");
    await waitFor(() => priceOf(t, BTC) === "60000", "BTC back at 60000", 20_000);
    // The quote endpoint answers from its thread's last snapshot of the prices, a moment behind.
    await waitFor(
      () =>
        t
          .user(0)
          .bestQuote(BTC, USDC, 1_000_000n)
          .then(
            (quote) => BigInt(quote.destination.amount) + chargedUnits(quote.fixed_fee, 6) === 598_200_000n,
          )
          .catch(() => false),
      "the quote endpoint at 60000 again",
      20_000,
    );
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("quotes from the median of the on-chain feed and the three exchange tickers", async () => {
    await t.net.priceFeeds.set("btc", "60100");
    t.net.tickers.set("BTC", "59900", "kraken");
    const sources = () =>
      t.net
        .solver!.pricing.describePrices()
        .find((p) => p.assetId === BTC)
        ?.sources.map((s) => s.price);
    await waitFor(() => sources()?.join() === "60100,60000,60000,59900", "the sources' new answers");
    const view = t.net.solver!.pricing.describePrices().find((p) => p.assetId === BTC);
    expect(view?.price).toBe("60000");
    const feed = t.net.priceFeeds.feed("ethereum_localnet", "btc");
    expect(view?.sources.map((s) => [s.label, s.price])).toEqual([
      [`chainlink ethereum_localnet ${feed.address}`, "60100"],
      ["binance BTCUSDT", "60000"],
      ["coinbase BTC-USD", "60000"],
      ["kraken XBTUSD", "59900"],
    ]);
    const quote = await t.user(0).bestQuote(BTC, USDC, 1_000_000n);
    // 0.01 BTC at 60000, less 30 bps and the network fees the quote states.
    expect(BigInt(quote.destination.amount)).toBe(598_200_000n - chargedUnits(quote.fixed_fee, 6));
    expect(t.net.descriptor.prices.feeds).toContainEqual(feed);
    expect(t.net.descriptor.prices.tickerUrl).toBe(t.net.tickers.url);
  });

  it("a stale feed stops quotes for its asset, and only its asset", async () => {
    // Arbitrum's WBTC is checked against BTC by its own feed alone: a feed two hours old cannot check it.
    const now = BigInt(Math.floor(Date.now() / 1000));
    await t.net.priceFeeds.setRound("arbitrum_localnet", "wbtc", {
      answer: 6_000_000_000_000n,
      startedAt: now - 7200n,
      updatedAt: now - 7200n,
      answeredInRound: 0n,
    });
    await waitFor(
      async () => (await quoteRefusal(t, BTC, "arbitrum_localnet:wbtc", 1_000_000n)) !== null,
      "the feed's stale round",
    );
    const refusal = await quoteRefusal(t, BTC, "arbitrum_localnet:wbtc", 1_000_000n);
    expect(refusal).toMatch(
      /^price_stale: no usable USD price for arbitrum_localnet:wbtc: cannot check the peg/,
    );
    expect(refusal).toMatch(/720\d(\.\d)? s old, max 3600 s/);
    expect(refusalOutcome("price_stale")).toBe("wait");
    const other = await t.user(0).bestQuote(BTC, "ethereum_localnet:wbtc", 1_000_000n);
    expect(BigInt(other.destination.amount)).toBe(997_000n - chargedUnits(other.fixed_fee, 8));
    await t.net.priceFeeds.set("wbtc", "60000", "arbitrum_localnet");
    await waitFor(
      async () => (await quoteRefusal(t, BTC, "arbitrum_localnet:wbtc", 1_000_000n)) === null,
      "a fresh feed",
    );
  });

  it("sources that disagree stop quotes", async () => {
    t.net.tickers.set("BTC", "63000", "binance");
    t.net.tickers.set("BTC", "63000", "coinbase");
    await waitFor(
      async () => (await quoteRefusal(t, BTC, USDC, 1_000_000n)) !== null,
      "the tickers' new answers",
    );
    const refusal = await quoteRefusal(t, BTC, USDC, 1_000_000n);
    expect(refusal).toMatch(/^price_sources_disagree: .*sources disagree by 487 bps, max 100/);
  });

  it("a price moved between quote and confirmation refuses the fill and instantly refunds the BTC", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote(BTC, USDC, 1_500_000n);
    expect(BigInt(quote.destination.amount)).toBe(897_300_000n - chargedUnits(quote.fixed_fee, 6));
    const order = await user.createOrder(quote);
    // BTC falls 5% on every source after the order was made, before its deposit confirms.
    await t.net.priceFeeds.set("btc", "57000");
    await t.net.priceFeeds.set("wbtc", "57000");
    t.net.tickers.set("BTC", "57000");
    await waitFor(() => priceOf(t, BTC) === "57000", "the solver's BTC price at 57000");
    const solverBefore = await solverBalances(t);
    const userBefore = await user.balance(BTC);

    await user.fundBitcoinSource(order);
    const offered = await user.waitForOrder(
      order.order_id,
      (o) => o.source_swap.instant_refund_tx !== undefined,
      {
        timeoutMs: 120_000,
      },
    );
    const decision = decisionBeforeInstantRefund(t.net.solver!.journal, order.order_id);
    expect(decision).toMatchObject({ outcome: "refuse", reason: "price_moved" });
    expect(decision?.detail).toMatch(
      /order asks 89\d\.\d+ ethereum_localnet:usdc \(\d+\) but the solver quotes 85\d\.\d+/,
    );
    await user.broadcastInstantRefund(offered);
    await user.waitForOrder(order.order_id, (o) => o.source_swap.refund_block_number !== "0", {
      timeoutMs: 60_000,
    });

    // The user has the BTC back, less the fees of the deposit and of the refund.
    const lost = userBefore - (await user.balance(BTC));
    expect(lost).toBeGreaterThan(0n);
    expect(lost).toBeLessThan(2_000n);
    expect(actionsOf(t, order.order_id)).toEqual([["instant_refund", "confirmed"]]);
    expect(await solverBalances(t)).toEqual(solverBefore);
  });
});
