import { describe, expect, it } from "vitest";
import type { AssetConfig, Limits } from "../../../src/config/types.js";
import { CapacityLedger, type CapacityLedgerDeps } from "../../../src/pricing/capacity-ledger.js";
import { FixedPriceSource } from "../../../src/pricing/price-source.js";

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
    limits,
    ...overrides,
  };
  return { deps: base, reads };
}

const take = (ledger: CapacityLedger, amount: bigint, alreadyPlanned = 0n) =>
  ledger.take({ asset: usdc.id, amount, alreadyPlanned });

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
