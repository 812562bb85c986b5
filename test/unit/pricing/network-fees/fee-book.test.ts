/**
 * The fee book reads every chain's fees and the recent batch sizes in the background: a failed read
 * keeps the last estimate with its own time, so it ages out, and says why; the quote then refuses.
 */
import { describe, expect, it } from "vitest";
import { NetworkFeeBook } from "../../../../src/pricing/network-fees/fee-book.js";
import { FREE } from "../../../support/network-fees.js";

describe("NetworkFeeBook", () => {
  it("keeps the last estimate with its time after a failed read, and records why", async () => {
    let clock = 1_000;
    let failing: Error | null = null;
    const book = new NetworkFeeBook({
      estimators: [
        {
          chain: "a",
          networkFees: () => (failing === null ? Promise.resolve(FREE) : Promise.reject(failing)),
        },
      ],
      batchSizes: (sinceMs) => new Map([[`a/fill/${sinceMs}`, { transactions: 1, actions: 3 }]]),
      refreshMs: 60_000,
      batchWindowMs: 500,
      now: () => clock,
    });
    await book.refresh();
    expect(book.facts().readings.get("a")).toEqual({ last: { fees: FREE, atMs: 1_000 }, error: null });
    expect([...book.facts().batches.keys()]).toEqual(["a/fill/500"]);

    clock = 2_000;
    failing = new Error("connect ECONNREFUSED");
    await book.refresh();
    expect(book.facts().readings.get("a")).toEqual({
      last: { fees: FREE, atMs: 1_000 },
      error: "connect ECONNREFUSED",
    });
  });
});
