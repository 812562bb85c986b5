import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IntervalMiner } from "../../../../src/families/bitcoin/interval-miner.js";

/** A node whose blocks take these times to mine (the last one for the rest); records when each began. */
function slowNode(mineMs: number[]) {
  const began: number[] = [];
  return {
    began,
    generateToAddress: async () => {
      const takes = mineMs[Math.min(began.length, mineMs.length - 1)] ?? 0;
      began.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, takes));
    },
  };
}

describe("localnet: Bitcoin interval miner", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps its blocks on a fixed grid however long each takes to mine", async () => {
    const node = slowNode([300]);
    const miner = new IntervalMiner(node, "address", 1_000, pino({ level: "silent" }));
    miner.start();
    await vi.advanceTimersByTimeAsync(4_500);
    await miner.stop();
    // Waiting a full interval after each block would have mined at 1000, 2300, 3600.
    expect(node.began).toEqual([1_000, 2_000, 3_000, 4_000]);
  });

  it("starts a new grid after falling a whole interval behind, with no burst to catch up", async () => {
    // The first block takes 2.5 s to mine; the rest are quick.
    const node = slowNode([2_500, 0, 0, 0, 0]);
    const miner = new IntervalMiner(node, "address", 1_000, pino({ level: "silent" }));
    miner.start();
    await vi.advanceTimersByTimeAsync(6_000);
    await miner.stop();
    // The block due at 2000 is mined late, when the first is done; the one due at 3000 is dropped, not
    // mined right after it. A timer of 0 ms fires 1 ms later under fake timers: to the nearest 100 ms.
    expect(node.began.map((at) => Math.round(at / 100) * 100)).toEqual([1_000, 3_500, 4_500, 5_500]);
  });
});
