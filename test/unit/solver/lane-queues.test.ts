import { describe, expect, it } from "vitest";
import { LaneQueues } from "../../../src/solver/lane-queues.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LaneQueues", () => {
  it("runs a task of another lane at once while one lane is full, and waits for every lane when idle", async () => {
    const lanes = new LaneQueues(1);
    const ran: string[] = [];
    let releaseSlow = () => {};
    const slow = lanes.add("ethereum>bitcoin", async () => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      ran.push("slow");
    });
    const behind = lanes.add("ethereum>bitcoin", async () => {
      ran.push("behind the slow one");
    });
    const other = lanes.add("ethereum>arbitrum", async () => {
      ran.push("other lane");
      return 7;
    });
    expect(await other).toBe(7);
    await wait(10);
    expect(ran).toEqual(["other lane"]);
    let idle = false;
    const idling = lanes.onIdle().then(() => (idle = true));
    await wait(10);
    expect(idle).toBe(false);
    releaseSlow();
    await Promise.all([slow, behind, idling]);
    expect(ran).toEqual(["other lane", "slow", "behind the slow one"]);
  });
});
