import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { JournalView } from "../../../src/chains/chain.js";
import type { RoundTip } from "../../../src/solver/facts.js";
import { ChainWatch } from "../../../src/solver/chain-watch.js";
import type { SolverChain } from "../../../src/solver/solver-chain.js";
import { FakeChain } from "./fake-chain.js";

const noJournal = (): JournalView => {
  throw new Error("the watch never reads the journal");
};

/** `waiting`: ids of orders waiting for a lock; `counting`: ids of orders waiting for any block. */
function watchOf(
  chains: SolverChain[],
  opts: { waiting?: string[]; counting?: string[]; idle?: boolean } = {},
) {
  const woken: { orderIds: readonly string[]; tips: ReadonlyMap<string, RoundTip> }[] = [];
  const registry = new Map(chains.map((c) => [c.config.name, c]));
  const watch = new ChainWatch({
    chains: registry,
    intervalMs: 10,
    ordersAt: (chain, swapIds) => swapIds.map((id) => `${chain}/${id}`),
    follows: () => opts.idle !== true,
    waitingOn: (chain, only) => {
      const lock = only === "block" ? [] : (opts.waiting ?? []);
      const block = only === "lock" ? [] : (opts.counting ?? []);
      return [...lock, ...block].map((id) => `${chain}/${id}`);
    },
    wake: (orderIds, tips) => {
      woken.push({ orderIds, tips });
    },
    logger: pino({ level: "silent" }),
    now: () => 1_000,
  });
  return { watch, woken };
}

/** An EVM chain at height 100 and a watch over it. */
function ethWatched(opts: { idle?: boolean } = {}) {
  const eth = new FakeChain("eth", "evm", noJournal);
  eth.tip = 100n;
  const chain = eth.solverChain("0xsolver", []);
  return { eth, chain, ...watchOf([chain], opts) };
}

describe("ChainWatch", () => {
  it("wakes the orders whose HTLCs changed in each new block, asking for each block once", async () => {
    const { eth, chain, watch, woken } = ethWatched();
    expect(await watch.look(chain)).toBe(1_000); // first look: learns the tip, looks into its block only
    expect(woken).toEqual([]);
    expect(await watch.look(chain)).toBeNull(); // no new block
    eth.tip = 102n;
    eth.htlcEvents.set(101n, ["aa"]);
    eth.htlcEvents.set(102n, ["bb"]);
    await watch.look(chain);
    expect(eth.eventRanges).toEqual([
      [100n, 100n],
      [101n, 102n],
    ]);
    expect(woken.map((w) => w.orderIds)).toEqual([["eth/aa", "eth/bb"]]);
    const tip = { height: 102n, readAtMs: 1_000, answeredAt: expect.any(Number) as number };
    expect(woken[0]?.tips.get("eth")).toEqual(tip);
    expect(watch.tip("eth")).toEqual(tip);
  });

  it("asks again for blocks whose events could not be read", async () => {
    const { eth, chain, watch, woken } = ethWatched();
    await watch.look(chain);
    eth.tip = 101n;
    eth.htlcEvents.set(101n, ["aa"]);
    eth.failEvents = true;
    await expect(watch.look(chain)).rejects.toThrow("logs unavailable");
    eth.failEvents = false;
    eth.tip = 102n;
    await watch.look(chain);
    expect(eth.eventRanges).toEqual([
      [100n, 100n],
      [101n, 102n],
    ]);
    expect(woken.map((w) => w.orderIds)).toEqual([["eth/aa"]]);
  });

  it("where the chain cannot tell which HTLCs changed, wakes every order waiting on it at each new block", async () => {
    const btc = new FakeChain("btc", "bitcoin", noJournal);
    btc.eventsUnknown = true;
    const chain = btc.solverChain("key", []);
    const { watch, woken } = watchOf([chain], { waiting: ["o1"], counting: ["o2"] });
    btc.tip = 10n;
    await watch.look(chain); // the first look counts the tip's block as new
    await watch.look(chain);
    btc.tip = 11n;
    await watch.look(chain);
    expect(woken.map((w) => w.orderIds)).toEqual([
      ["btc/o1", "btc/o2"],
      ["btc/o1", "btc/o2"],
    ]);
  });

  it("wakes the orders counting confirmations at each new block, those waiting for a lock only at theirs", async () => {
    const btc = new FakeChain("btc", "bitcoin", noJournal);
    const chain = btc.solverChain("key", []);
    const { watch, woken } = watchOf([chain], { waiting: ["o1", "o2"], counting: ["o3"] });
    btc.tip = 10n;
    await watch.look(chain);
    btc.tip = 11n;
    btc.htlcEvents.set(11n, ["o2", "o3"]);
    await watch.look(chain);
    // o3's lock is in the block too: it is woken once.
    expect(woken.map((w) => w.orderIds)).toEqual([["btc/o3"], ["btc/o2", "btc/o3"]]);
  });

  it("after a reorg to a lower tip, looks into the new tip's block and goes on from there", async () => {
    const { eth, chain, watch, woken } = ethWatched();
    await watch.look(chain);
    eth.tip = 98n;
    await watch.look(chain);
    expect(woken).toEqual([]);
    eth.tip = 99n;
    eth.htlcEvents.set(99n, ["cc"]);
    await watch.look(chain);
    expect(eth.eventRanges).toEqual([
      [100n, 100n],
      [98n, 98n],
      [99n, 99n],
    ]);
    expect(woken.map((w) => w.orderIds)).toEqual([["eth/cc"]]);
  });

  it("runs on its own once started and stops cleanly", async () => {
    const { eth, watch, woken } = ethWatched();
    watch.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    eth.tip = 101n;
    eth.htlcEvents.set(101n, ["aa"]);
    const deadline = Date.now() + 5_000;
    while (woken.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await watch.stop();
    expect(woken.map((w) => w.orderIds)).toEqual([["eth/aa"]]);
  });

  it("reads nothing of a chain no followed order is on", async () => {
    const { eth, watch } = ethWatched({ idle: true });
    watch.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await watch.stop();
    expect(eth.readerCalls).toEqual([]);
    expect(watch.tip("eth")).toBeUndefined();
  });
});
