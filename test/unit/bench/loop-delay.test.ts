import { describe, expect, it } from "vitest";
import { CpuWindow } from "../../bench/load/cpu-window.js";

describe("load benchmark: how long its own event loop was held", () => {
  it("sees a loop held 150 ms as the longest hold", async () => {
    const window = new CpuWindow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 150;
    while (performance.now() < until) {
      // Holds the loop, as a long synchronous step of the service or the Bitcoin node would.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const held = window.shares().benchLoopDelayMaxMs;
    expect(held).toBeGreaterThanOrEqual(120);
    expect(held).toBeLessThan(1_000);
  });
});
