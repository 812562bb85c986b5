import { describe, expect, it } from "vitest";
import type { HtlcParams } from "../../../src/chains/chain.js";
import { waitsOnSource, WatchedOrders } from "../../../src/solver/watched-orders.js";

function side(chain: string, swapId: string): HtlcParams {
  return {
    chain,
    asset: `${chain}:usdc`,
    swapId,
    initiator: "a",
    redeemer: "b",
    secretHash: "00".repeat(32),
    timelock: 100n,
    amount: 1n,
  };
}

describe("WatchedOrders", () => {
  it("finds an order by either HTLC's swap id, whatever the case or 0x prefix", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("eth", "0xAB"), destination: side("arb", "cd") }, false);
    expect(watched.ordersAt("eth", ["ab"])).toEqual(["o1"]);
    expect(watched.ordersAt("arb", ["0xCD", "ee"])).toEqual(["o1"]);
    // The same id on another chain is another HTLC.
    expect(watched.ordersAt("arb", ["ab"])).toEqual([]);
    expect(watched.follows("eth") && watched.follows("arb")).toBe(true);
    expect(watched.follows("btc")).toBe(false);
  });

  it("keeps an order waiting on its source chain only while its last plan waited there", () => {
    const watched = new WatchedOrders();
    const sides = { source: side("btc", "addr"), destination: side("arb", "cd") };
    watched.note("o1", sides, true);
    watched.note("o2", { source: side("btc", "addr2"), destination: side("arb", "ef") }, true);
    expect(watched.waitingOn("btc").sort()).toEqual(["o1", "o2"]);
    expect(watched.waitingOn("arb")).toEqual([]);
    watched.note("o1", sides, false);
    expect(watched.waitingOn("btc")).toEqual(["o2"]);
  });

  it("forgets a settled order entirely", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("btc", "addr"), destination: side("arb", "cd") }, true);
    watched.forget("o1");
    expect(watched.ordersAt("arb", ["cd"])).toEqual([]);
    expect(watched.ordersAt("btc", ["addr"])).toEqual([]);
    expect(watched.waitingOn("btc")).toEqual([]);
    expect(watched.follows("btc") || watched.follows("arb")).toBe(false);
  });

  it("drops a swap id an order no longer has", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("eth", "aa"), destination: side("arb", "cd") }, false);
    watched.note("o1", { source: side("eth", "bb"), destination: side("arb", "cd") }, false);
    expect(watched.ordersAt("eth", ["aa"])).toEqual([]);
    expect(watched.ordersAt("eth", ["bb"])).toEqual(["o1"]);
  });

  it("counts only the waits a new source block can end", () => {
    expect(waitsOnSource("source_unconfirmed")).toBe(true);
    expect(waitsOnSource("source_not_initiated")).toBe(true);
    expect(waitsOnSource("insufficient_inventory")).toBe(false);
    expect(waitsOnSource(null)).toBe(false);
  });

  it("keeps a swap id two orders name for the one still followed", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("eth", "aa"), destination: side("arb", "cd") }, false);
    watched.note("o2", { source: side("eth", "aa"), destination: side("arb", "ef") }, false);
    watched.forget("o1");
    expect(watched.ordersAt("eth", ["aa"])).toEqual(["o2"]);
    expect(watched.follows("eth")).toBe(true);
  });
});
