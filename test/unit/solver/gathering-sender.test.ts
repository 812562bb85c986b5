import { describe, expect, it } from "vitest";
import type { ActionCandidate } from "../../../src/solver/fill-gate.js";
import { GatheringSender } from "../../../src/solver/gathering-sender.js";
import { held, stillPendingAfter } from "../../support/held.js";

const candidate = (orderId: string): ActionCandidate =>
  ({ request: { orderId } }) as unknown as ActionCandidate;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const serial = (gatherMs: number) => ({ gatherMs, overlap: false });

describe("GatheringSender", () => {
  it("sends what is ready within a window together, before the round ends, one send at a time", async () => {
    const sent: string[][] = [];
    let active = 0;
    let overlapped = false;
    const sender = new GatheringSender(async (candidates) => {
      active++;
      overlapped ||= active > 1;
      sent.push(candidates.map((c) => c.request.orderId));
      await wait(30);
      active--;
    }, serial(20));
    sender.add([candidate("a")]);
    sender.add([]);
    sender.add([candidate("b")]);
    await wait(40);
    expect(sent).toEqual([["a", "b"]]);
    sender.add([candidate("c")]);
    await wait(25);
    sender.add([candidate("d")]);
    await sender.finish();
    expect(sent).toEqual([["a", "b"], ["c"], ["d"]]);
    expect(overlapped).toBe(false);
  });

  it("rethrows a failed send when the round finishes, after the other sends", async () => {
    const sent: string[] = [];
    const sender = new GatheringSender(async (candidates) => {
      const id = candidates[0]?.request.orderId ?? "";
      if (id === "bad") throw new Error("node down");
      sent.push(id);
    }, serial(5));
    sender.add([candidate("bad")]);
    await wait(15);
    sender.add([candidate("good")]);
    await expect(sender.finish()).rejects.toThrow("node down");
    expect(sent).toEqual(["good"]);
  });

  it("with overlap, a slow send never holds the next window's, and finish waits for both", async () => {
    const started: string[] = [];
    const done: string[] = [];
    const slow = held();
    const sender = new GatheringSender(
      async (candidates) => {
        const id = candidates[0]?.request.orderId ?? "";
        started.push(id);
        if (id === "slow") await slow.until;
        done.push(id);
      },
      { gatherMs: 5, overlap: true },
    );
    sender.add([candidate("slow")]);
    await wait(15);
    sender.add([candidate("next")]);
    await wait(15);
    expect(started).toEqual(["slow", "next"]);
    expect(done).toEqual(["next"]);
    const finishing = sender.finish();
    expect(await stillPendingAfter(finishing, 10)).toBe(true);
    slow.release();
    await finishing;
    expect(done).toEqual(["next", "slow"]);
  });

  it("a held window stays open until its holder lets go, and no longer than its cap", async () => {
    const sent: string[][] = [];
    const sender = new GatheringSender(
      async (candidates) => {
        sent.push(candidates.map((c) => c.request.orderId));
      },
      { gatherMs: 10, maxGatherMs: 60, overlap: true },
    );
    const release = sender.hold();
    sender.add([candidate("early")]);
    await wait(25);
    expect(sent).toEqual([]);
    sender.add([candidate("late")]);
    release();
    release();
    await wait(5);
    expect(sent).toEqual([["early", "late"]]);

    // A holder that never lets go holds the window only until the cap.
    const stuck = sender.hold();
    sender.add([candidate("capped")]);
    await wait(30);
    expect(sent).toHaveLength(1);
    await wait(50);
    expect(sent).toEqual([["early", "late"], ["capped"]]);
    stuck();
    // With no holder, a window is sent after gatherMs.
    sender.add([candidate("free")]);
    await wait(25);
    expect(sent).toEqual([["early", "late"], ["capped"], ["free"]]);
    await sender.finish();
  });

  it("ignores holds when it has no cap", async () => {
    const sent: string[][] = [];
    const sender = new GatheringSender(async (candidates) => {
      sent.push(candidates.map((c) => c.request.orderId));
    }, serial(10));
    sender.hold();
    sender.add([candidate("a")]);
    await wait(25);
    expect(sent).toEqual([["a"]]);
  });
});
