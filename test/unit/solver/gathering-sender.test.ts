import { describe, expect, it } from "vitest";
import type { ActionCandidate } from "../../../src/solver/fill-gate.js";
import { RoundSender } from "../../../src/solver/round-sender.js";

const candidate = (orderId: string): ActionCandidate =>
  ({ request: { orderId } }) as unknown as ActionCandidate;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RoundSender", () => {
  it("sends what is ready within a window together, before the round ends, one send at a time", async () => {
    const sent: string[][] = [];
    let active = 0;
    let overlapped = false;
    const sender = new RoundSender(async (candidates) => {
      active++;
      overlapped ||= active > 1;
      sent.push(candidates.map((c) => c.request.orderId));
      await wait(30);
      active--;
    }, 20);
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
    const sender = new RoundSender(async (candidates) => {
      const id = candidates[0]?.request.orderId ?? "";
      if (id === "bad") throw new Error("node down");
      sent.push(id);
    }, 5);
    sender.add([candidate("bad")]);
    await wait(15);
    sender.add([candidate("good")]);
    await expect(sender.finish()).rejects.toThrow("node down");
    expect(sent).toEqual(["good"]);
  });
});
