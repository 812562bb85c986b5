import { describe, expect, it } from "vitest";
import { LaneQueues } from "../../../src/solver/lane-queues.js";
import { held, stillPendingAfter } from "../../support/held.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LaneQueues", () => {
  it("runs a task of another lane at once while one lane is full, and waits for every lane when idle", async () => {
    const lanes = new LaneQueues(1);
    const ran: string[] = [];
    const slowWork = held();
    const slow = lanes.add("ethereum>bitcoin", async () => {
      await slowWork.until;
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
    const idling = lanes.onIdle();
    expect(await stillPendingAfter(idling, 10)).toBe(true);
    slowWork.release();
    await Promise.all([slow, behind, idling]);
    expect(ran).toEqual(["other lane", "slow", "behind the slow one"]);
  });
});
