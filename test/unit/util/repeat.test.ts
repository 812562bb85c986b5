import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Repeat } from "../../../src/util/repeat.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Work whose runs end only when told, recording when each started. */
function heldWork() {
  const starts: number[] = [];
  const ends: (() => void)[] = [];
  const work = () =>
    new Promise<void>((resolve) => {
      starts.push(Date.now());
      ends.push(resolve);
    });
  return { starts, work, endRun: (i: number) => ends[i]?.() };
}

describe("Repeat", () => {
  it("runs at once, then the interval after each run ends, never two at once", async () => {
    const { starts, work, endRun } = heldWork();
    const t0 = Date.now();
    const repeat = new Repeat(work, 1_000);
    repeat.start();
    expect(starts).toEqual([t0]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(starts).toHaveLength(1);
    endRun(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([t0, t0 + 6_000]);
    endRun(1);
    await repeat.stop();
  });

  it("waits the first delay when given one", async () => {
    const { starts, work, endRun } = heldWork();
    const t0 = Date.now();
    const repeat = new Repeat(work, 1_000);
    repeat.start(300);
    expect(starts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(300);
    expect(starts).toEqual([t0 + 300]);
    endRun(0);
    await repeat.stop();
  });

  it("goes on after a failed run", async () => {
    let runs = 0;
    const repeat = new Repeat(async () => {
      runs += 1;
      throw new Error("service down");
    }, 100);
    repeat.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(3);
    await repeat.stop();
  });

  it("stops: no run starts after, and stop waits for the run under way", async () => {
    const { starts, work, endRun } = heldWork();
    const repeat = new Repeat(work, 100);
    repeat.start();
    let stopped = false;
    const stopping = repeat.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    endRun(0);
    await stopping;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(starts).toHaveLength(1);
  });
});
