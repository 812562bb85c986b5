import { describe, expect, it } from "vitest";
import type { HtlcParams } from "../../../src/chains/chain.js";
import { sourceWaitOf, WatchedOrders } from "../../../src/solver/watched-orders.js";

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
    watched.note("o1", { source: side("eth", "0xAB"), destination: side("arb", "cd") }, null);
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
    watched.note("o1", sides, "lock");
    watched.note("o2", { source: side("btc", "addr2"), destination: side("arb", "ef") }, "lock");
    expect(watched.waitingOn("btc").sort()).toEqual(["o1", "o2"]);
    expect(watched.waitingOn("arb")).toEqual([]);
    watched.note("o1", sides, null);
    expect(watched.waitingOn("btc")).toEqual(["o2"]);
  });

  it("forgets a settled order entirely", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("btc", "addr"), destination: side("arb", "cd") }, "lock");
    watched.forget("o1");
    expect(watched.ordersAt("arb", ["cd"])).toEqual([]);
    expect(watched.ordersAt("btc", ["addr"])).toEqual([]);
    expect(watched.waitingOn("btc")).toEqual([]);
    expect(watched.follows("btc") || watched.follows("arb")).toBe(false);
  });

  it("drops a swap id an order no longer has", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("eth", "aa"), destination: side("arb", "cd") }, null);
    watched.note("o1", { source: side("eth", "bb"), destination: side("arb", "cd") }, null);
    expect(watched.ordersAt("eth", ["aa"])).toEqual([]);
    expect(watched.ordersAt("eth", ["bb"])).toEqual(["o1"]);
  });

  it("tells the waits a lock must end from those any new block can end", () => {
    expect(sourceWaitOf("source_not_initiated")).toBe("lock");
    expect(sourceWaitOf("source_underfunded")).toBe("lock");
    expect(sourceWaitOf("source_unconfirmed")).toBe("block");
    expect(sourceWaitOf("source_chain_unreadable")).toBe("block");
    expect(sourceWaitOf("insufficient_inventory")).toBeNull();
    expect(sourceWaitOf(null)).toBeNull();
  });

  it("lists the orders waiting on a chain one way or all of them", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("btc", "a1"), destination: side("arb", "d1") }, "lock");
    watched.note("o2", { source: side("btc", "a2"), destination: side("arb", "d2") }, "block");
    watched.note("o3", { source: side("eth", "a3"), destination: side("btc", "d3") }, "block");
    expect(watched.waitingOn("btc", "block")).toEqual(["o2"]);
    expect(watched.waitingOn("btc", "lock")).toEqual(["o1"]);
    expect(watched.waitingOn("btc").sort()).toEqual(["o1", "o2"]);
    // Its deposit confirmed: o2 no longer waits, and an order waiting one way no longer waits the other.
    watched.note("o2", { source: side("btc", "a2"), destination: side("arb", "d2") }, null);
    watched.note("o1", { source: side("btc", "a1"), destination: side("arb", "d1") }, "block");
    expect(watched.waitingOn("btc", "block")).toEqual(["o1"]);
    expect(watched.waitingOn("btc", "lock")).toEqual([]);
  });

  it("keeps a swap id two orders name for the one still followed", () => {
    const watched = new WatchedOrders();
    watched.note("o1", { source: side("eth", "aa"), destination: side("arb", "cd") }, null);
    watched.note("o2", { source: side("eth", "aa"), destination: side("arb", "ef") }, null);
    watched.forget("o1");
    expect(watched.ordersAt("eth", ["aa"])).toEqual(["o2"]);
    expect(watched.follows("eth")).toBe(true);
  });
});
