import { describe, expect, it } from "vitest";
import { PhaseTimer } from "../../../src/util/phase-timer.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PhaseTimer", () => {
  it("times each phase, a failed one too, and the whole since it was made", async () => {
    const timer = new PhaseTimer();
    expect(await timer.time("read", async () => (await wait(30), "tip"))).toBe("tip");
    await expect(
      timer.time("send", async () => (await wait(20), Promise.reject(new Error("down")))),
    ).rejects.toThrow("down");
    expect(timer.phasesMs.read).toBeGreaterThanOrEqual(25);
    expect(timer.phasesMs.send).toBeGreaterThanOrEqual(15);
    expect(timer.elapsedMs()).toBeGreaterThanOrEqual((timer.phasesMs.read ?? 0) + (timer.phasesMs.send ?? 0));
  });
});
