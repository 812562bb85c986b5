import { describe, expect, it } from "vitest";
import { BlockClock } from "../../bench/load/block-clock.js";

describe("load benchmark: block clock", () => {
  it("dates a height skipped between two polls at the second, and answers heights by time", () => {
    const clock = new BlockClock(new Map());
    clock.record("eth", 10, 1_000);
    clock.record("eth", 10, 1_100);
    clock.record("eth", 13, 2_000);
    expect(clock.seenAt("eth", 10)).toBe(1_000);
    expect(clock.seenAt("eth", 12)).toBe(2_000);
    expect(clock.seenAt("eth", 9)).toBeNull();
    expect(clock.seenAt("eth", 14)).toBeNull();
    expect(clock.heightAt("eth", 999)).toBeNull();
    expect(clock.heightAt("eth", 1_999)).toBe(10);
    expect(clock.heightAt("eth", 2_000)).toBe(13);
    expect(clock.blocksSeen()).toEqual({
      eth: [
        { height: 10, atMs: 1_000 },
        { height: 11, atMs: 2_000 },
        { height: 12, atMs: 2_000 },
        { height: 13, atMs: 2_000 },
      ],
    });
  });
});
