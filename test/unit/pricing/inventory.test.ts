import { describe, expect, it } from "vitest";
import type { AssetIndex } from "../../../src/pricing/assets.js";
import { Inventory } from "../../../src/pricing/inventory.js";
import { FixedPriceSource, PriceUnavailableError } from "../../../src/pricing/price-source.js";
import { BTC, ETH, MemoryBalances, PRICES, USDC } from "./fixtures.js";

const assets: AssetIndex = new Map([USDC, ETH, BTC].map((asset) => [asset.id, asset]));

function setup(options: { cacheMs?: number; prices?: Record<string, string> } = {}) {
  const balances = new MemoryBalances(
    new Map([
      [USDC.id, 5_000_000_000n],
      [ETH.id, 3n * 10n ** 18n],
    ]),
  );
  const committed = new Map<string, bigint>();
  let clock = 1_000_000;
  const inventory = new Inventory({
    balances,
    committed: async (id) => committed.get(id) ?? 0n,
    floors: { [USDC.id]: 1_000_000_000n },
    prices: new FixedPriceSource(options.prices ?? PRICES),
    assets,
    cacheMs: options.cacheMs ?? 0,
    now: () => clock,
  });
  return { inventory, balances, committed, advance: (ms: number) => (clock += ms) };
}

describe("Inventory.available", () => {
  it("is balance minus committed minus floor", async () => {
    const { inventory, committed } = setup();
    expect(await inventory.available(USDC.id)).toBe(4_000_000_000n);
    committed.set(USDC.id, 1_500_000_000n);
    expect(await inventory.snapshot(USDC.id)).toEqual({
      balance: 5_000_000_000n,
      committed: 1_500_000_000n,
      floor: 1_000_000_000n,
      available: 2_500_000_000n,
    });
    committed.set(USDC.id, 4_500_000_000n);
    expect(await inventory.available(USDC.id)).toBe(-500_000_000n);
  });

  it("uses floor 0 for an asset without one", async () => {
    const { inventory } = setup();
    expect(await inventory.available(ETH.id)).toBe(3n * 10n ** 18n);
    expect(await inventory.available(BTC.id)).toBe(0n);
  });
});

describe("Inventory balance cache", () => {
  it("reuses a read younger than cacheMs and re-reads after", async () => {
    const { inventory, balances, advance } = setup({ cacheMs: 1000 });
    await inventory.available(USDC.id);
    await inventory.available(USDC.id);
    expect(balances.reads).toBe(1);
    balances.amounts.set(USDC.id, 7_000_000_000n);
    advance(999);
    expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
    expect(balances.reads).toBe(1);
    advance(1);
    // Past cacheMs: the last balance answers at once, and one read refreshes it for the next caller.
    expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
    expect(await inventory.balance(USDC.id)).toBe(7_000_000_000n);
    expect(balances.reads).toBe(2);
  });

  it("waits for a fresh read once the last balance is far too old", async () => {
    const { inventory, balances, advance } = setup({ cacheMs: 1000 });
    await inventory.balance(USDC.id);
    balances.amounts.set(USDC.id, 7_000_000_000n);
    advance(12_000);
    expect(await inventory.balance(USDC.id)).toBe(7_000_000_000n);
    expect(balances.reads).toBe(2);
  });

  it("keeps answering with the last balance while refreshes fail", async () => {
    const { inventory, balances, advance } = setup({ cacheMs: 1000 });
    await inventory.balance(USDC.id);
    advance(1000);
    balances.failNext = new Error("node down");
    expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
    await Promise.resolve();
    expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
  });

  it("shares one read between concurrent callers", async () => {
    const { inventory, balances } = setup({ cacheMs: 1000 });
    await Promise.all([inventory.balance(ETH.id), inventory.balance(ETH.id), inventory.balance(ETH.id)]);
    expect(balances.reads).toBe(1);
  });

  it("forgets balances on invalidate", async () => {
    const { inventory, balances } = setup({ cacheMs: 60_000 });
    await inventory.balance(USDC.id);
    await inventory.balance(ETH.id);
    inventory.invalidate(USDC.id);
    await inventory.balance(USDC.id);
    await inventory.balance(ETH.id);
    expect(balances.reads).toBe(3);
    inventory.invalidate();
    await inventory.balance(ETH.id);
    expect(balances.reads).toBe(4);
  });

  it("reads again a second after a failed read, and not before", async () => {
    const { inventory, balances, advance } = setup({ cacheMs: 60_000 });
    balances.failNext = new Error("node down");
    await expect(inventory.balance(USDC.id)).rejects.toThrow("node down");
    advance(999);
    await expect(inventory.balance(USDC.id)).rejects.toThrow("node down");
    expect(balances.reads).toBe(1);
    advance(1);
    expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
    expect(balances.reads).toBe(2);
  });

  it("reads a failing node once per pause however many callers ask one after another", async () => {
    const { inventory, balances, advance } = setup({ cacheMs: 1000 });
    await inventory.balance(USDC.id);
    const down = new Error("node down");
    const fail = balances.balance.bind(balances);
    balances.balance = async (assetId) => {
      await fail(assetId);
      throw down;
    };
    // Past cacheMs the last balance answers while a refresh runs; each refresh fails.
    advance(1000);
    for (let i = 0; i < 50; i++) {
      expect(await inventory.balance(USDC.id)).toBe(5_000_000_000n);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(balances.reads).toBe(2);
    // Far too old to answer with: callers get the failure, still without a read each.
    advance(12_000);
    const answers = [];
    for (let i = 0; i < 50; i++) {
      answers.push(await inventory.balance(USDC.id).catch((error: unknown) => error));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(answers.every((answer) => answer === down)).toBe(true);
    expect(balances.reads).toBe(3);
  });
});

describe("Inventory.inFlightUsdCents", () => {
  it("sums committed amounts at current prices, rounding each up to a cent", async () => {
    const { inventory, committed } = setup();
    expect(await inventory.inFlightUsdCents()).toBe(0n);
    committed.set(ETH.id, 10n ** 18n); // $3000.50
    committed.set(BTC.id, 50_000_000n); // $32500.125 -> 3250013 cents
    committed.set(USDC.id, 1n); // $0.000001 -> 1 cent
    expect(await inventory.inFlightUsdCents()).toBe(300_050n + 3_250_013n + 1n);
  });

  it("needs no price for assets with nothing committed, but throws for one that has", async () => {
    const { inventory, committed } = setup({ prices: { [ETH.id]: "2000" } });
    committed.set(ETH.id, 10n ** 18n);
    expect(await inventory.inFlightUsdCents()).toBe(200_000n);
    committed.set(BTC.id, 1n);
    await expect(inventory.inFlightUsdCents()).rejects.toThrow(PriceUnavailableError);
  });
});
