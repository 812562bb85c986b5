import { describe, expect, it } from "vitest";
import { feeCoinsOf } from "../../../src/chains/coins.js";
import type { AssetConfig, Limits } from "../../../src/config/types.js";
import { CapacityLedger, type CapacityLedgerDeps } from "../../../src/pricing/capacity-ledger.js";
import type { OrderAmounts } from "../../../src/pricing/order-check.js";
import { FixedPriceSource } from "../../../src/pricing/price-source.js";
import { refuse } from "../../../src/pricing/refusal.js";
import { chainsOf } from "../../support/coin-chains.js";

const usdc: AssetConfig = {
  id: "ethereum:usdc",
  chain: "ethereum",
  symbol: "usdc",
  decimals: 6,
  tokenAddress: "0x00000000000000000000000000000000000000c1",
  htlcAddress: "",
};
const eth: AssetConfig = { ...usdc, id: "ethereum:eth", symbol: "eth", decimals: 18, tokenAddress: "native" };

function deps(overrides: Partial<CapacityLedgerDeps> & { held?: Record<string, bigint> } = {}) {
  const reads: string[] = [];
  const held = overrides.held ?? { [usdc.id]: 1_000_000_000n, [eth.id]: 10n ** 18n };
  const limits: Limits = { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n };
  const base: CapacityLedgerDeps = {
    balances: {
      balance: (id) => {
        reads.push(`balance ${id}`);
        return Promise.resolve(held[id] ?? 0n);
      },
    },
    plannedFills: () => {
      reads.push("planned");
      return new Map();
    },
    inFlight: () => {
      reads.push("in flight");
      return new Map();
    },
    floors: {},
    prices: new FixedPriceSource({ [usdc.id]: "1", [eth.id]: "3000" }),
    assets: new Map([
      [usdc.id, usdc],
      [eth.id, eth],
    ]),
    feeCoins: feeCoinsOf(chainsOf(usdc, eth)),
    limits,
    priceAt: () => Promise.resolve(undefined),
    ...overrides,
  };
  return { deps: base, reads };
}

/** A fill of `amount` units of USDC for an ETH source. */
const fillOf = (amount: bigint) => ({
  fromAsset: eth.id,
  toAsset: usdc.id,
  fromAmount: 10n ** 18n,
  toAmount: amount,
});

const take = (ledger: CapacityLedger, amount: bigint, alreadyPlanned = 0n) =>
  ledger.take({ order: fillOf(amount), alreadyPlanned });

/** A ledger ready to take fills: opened, then the exposure read, as the fill gate does. */
async function opened(d: CapacityLedgerDeps, assetIds: string[]): Promise<CapacityLedger> {
  const ledger = await CapacityLedger.open(d, assetIds);
  await ledger.readExposure();
  return ledger;
}

describe("the capacity ledger of one claiming pass", () => {
  it("reads the journal's claimed fills before the balances, and the exposure only when asked", async () => {
    const { deps: d, reads } = deps();
    const ledger = await CapacityLedger.open(d, [usdc.id]);
    expect(reads[0]).toBe("planned");
    expect(reads.slice(1).sort()).toEqual([`balance ${eth.id}`, `balance ${usdc.id}`]);
    // Nothing is taken before the value in flight is read.
    expect(await take(ledger, 1n)).toMatchObject({ reason: "inventory_unavailable" });
    await ledger.readExposure();
    expect(reads[3]).toBe("in flight");
    expect(await take(ledger, 1n)).toBeUndefined();
  });

  it("admits fills one after another until the inventory above its floor is used up", async () => {
    const { deps: d } = deps({
      floors: { [usdc.id]: 100_000_000n },
      plannedFills: () => new Map([[usdc.id, 300_000_000n]]),
    });
    // 1000 held, 300 claimed before, floor 100: 600 to give.
    const ledger = await opened(d, [usdc.id]);
    expect(await take(ledger, 400_000_000n)).toBeUndefined();
    expect(await take(ledger, 200_000_000n)).toBeUndefined();
    expect(await take(ledger, 1n)).toMatchObject({ reason: "insufficient_inventory" });
  });

  it("does not count an order's own claimed fill against itself", async () => {
    const { deps: d } = deps({ plannedFills: () => new Map([[usdc.id, 1_000_000_000n]]) });
    const ledger = await opened(d, [usdc.id]);
    expect(await take(ledger, 1_000_000_000n)).toMatchObject({ reason: "insufficient_inventory" });
    expect(await take(ledger, 1_000_000_000n, 1_000_000_000n)).toBeUndefined();
  });

  it("prices each fill at the inventory the fills admitted before it left, its own claim not counted", async () => {
    const asked: { order: OrderAmounts; holding: bigint }[] = [];
    const { deps: d } = deps({
      floors: { [usdc.id]: 100_000_000n },
      plannedFills: () => new Map([[usdc.id, 300_000_000n]]),
      // The curve of this test: no fill once the inventory it finds is below 500 USDC.
      priceAt: (order, holding) => {
        asked.push({ order, holding });
        return Promise.resolve(
          holding < 500_000_000n ? refuse("price_moved", "the curve's fee is wider now") : undefined,
        );
      },
    });
    // 1000 held, 300 claimed before (100 of them this order's own), floor 100.
    const ledger = await opened(d, [usdc.id]);
    expect(await take(ledger, 150_000_000n, 100_000_000n)).toBeUndefined();
    expect(await take(ledger, 100_000_000n)).toBeUndefined();
    expect(await take(ledger, 100_000_000n)).toBeUndefined();
    expect(await take(ledger, 50_000_000n)).toMatchObject({ reason: "price_moved" });
    expect(asked).toEqual([
      { order: fillOf(150_000_000n), holding: 800_000_000n },
      { order: fillOf(100_000_000n), holding: 650_000_000n },
      { order: fillOf(100_000_000n), holding: 550_000_000n },
      { order: fillOf(50_000_000n), holding: 450_000_000n },
    ]);
    // A fill refused for its price takes nothing: the inventory the next one finds is unchanged.
    expect(await take(ledger, 300_000_000n)).toMatchObject({ reason: "price_moved" });
    // Capacity is judged first: a fill the inventory cannot carry waits for it, whatever the curve says.
    expect(await take(ledger, 350_000_001n)).toMatchObject({ reason: "insufficient_inventory" });
    expect(asked.at(-1)?.holding).toBe(450_000_000n);
  });

  it("refuses token fills while the fee coin is below its floor, and counts the exposure of each fill", async () => {
    const low = deps({ floors: { [eth.id]: 2n * 10n ** 18n } });
    expect(await take(await opened(low.deps, [usdc.id]), 1n)).toMatchObject({
      reason: "insufficient_gas",
    });
    const { deps: d } = deps({
      limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 250_00n },
      inFlight: () => new Map([[eth.id, 10n ** 16n]]),
    });
    // $30 already out; $250 allowed.
    const ledger = await opened(d, [usdc.id]);
    expect(await take(ledger, 200_000_000n)).toBeUndefined();
    expect(await take(ledger, 20_000_001n)).toMatchObject({ reason: "exposure_limit" });
    expect(await take(ledger, 20_000_000n)).toBeUndefined();
  });

  it("says what it could not read instead of admitting anything", async () => {
    const { deps: d } = deps({ balances: { balance: () => Promise.reject(new Error("node down")) } });
    const ledger = await opened(d, [usdc.id]);
    expect(await take(ledger, 1n)).toMatchObject({ reason: "inventory_unavailable" });
    const noPrice = deps({ prices: new FixedPriceSource({}) });
    expect(await take(await opened(noPrice.deps, [usdc.id]), 1n)).toMatchObject({
      reason: "price_unavailable",
    });
  });
});
