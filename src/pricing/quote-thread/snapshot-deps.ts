/**
 * A quote's dependencies backed by a snapshot (snapshot.ts): the same price and capacity classes the main
 * thread quotes with, reading the snapshot's facts instead of the price book, the executors and the
 * journal. Nothing of the pricing logic is copied; only where its facts come from differs.
 */
import { indexAssets } from "../assets.js";
import { Inventory } from "../inventory.js";
import { LivePrices } from "../live/live-prices.js";
import { priceSourcesOf } from "../price-source.js";
import type { QuoteDeps } from "../quote.js";
import { quoteDepsOf } from "../quote-settings.js";
import type { QuoteSnapshot } from "./snapshot.js";

export function quoteDepsFromSnapshot(snapshot: QuoteSnapshot, now: () => number): QuoteDeps {
  const { settings, capacity } = snapshot;
  const live = new LivePrices(settings.livePrices, (assetId) => snapshot.readings[assetId] ?? [], now);
  const prices = priceSourcesOf(settings.fixedPrices, live);
  const inventory = new Inventory({
    balances: {
      balance: async (assetId) => {
        const fact = capacity.balances.get(assetId);
        if (fact === undefined) throw new Error(`no balance of ${assetId} in the quote snapshot`);
        if (!fact.ok) throw new Error(fact.error);
        return fact.amount;
      },
    },
    committed: (assetId) => capacity.committed.get(assetId) ?? 0n,
    inFlight: (assetId) => capacity.inFlight.get(assetId) ?? 0n,
    floors: settings.limits.inventoryFloor,
    prices: prices.byAsset,
    assets: indexAssets([{ assets: settings.assets }]),
    // The snapshot is the cache: every read answers from it.
    cacheMs: 0,
    now,
  });
  return quoteDepsOf(settings, prices, inventory, { facts: () => snapshot.networkFees, now });
}
