import { describe, expect, it } from "vitest";
import { demoSummary, isComplete, progressLines, type DemoResult } from "../../src/demo.js";
import { makeOrder } from "../../../../test/support/order-fixture.js";

const H = (c: string) => `0x${c.repeat(64)}`;

describe("demo progress", () => {
  it("prints the first read's status, then new transactions before the status they led to", () => {
    const created = makeOrder();
    created.status = "Created";
    expect(progressLines(null, created)).toEqual(["Created"]);

    const filled = makeOrder({
      source: { initiate_tx_hash: H("1") },
      destination: { initiate_tx_hash: H("2") },
    });
    filled.status = "AwaitingRedeem";
    expect(progressLines(created, filled)).toEqual([
      `  user initiate       ethereum_localnet  ${H("1")}`,
      `  solver fill         arbitrum_localnet  ${H("2")}`,
      "AwaitingRedeem",
    ]);
    expect(progressLines(filled, filled)).toEqual([]);
  });

  it("is complete once both sides are redeemed", () => {
    const half = makeOrder({ destination: { redeem_tx_hash: H("3") } });
    expect(isComplete(half)).toBe(false);
    expect(progressLines(makeOrder(), half)).toEqual([`  destination redeem  arbitrum_localnet  ${H("3")}`]);
    const both = makeOrder({ destination: { redeem_tx_hash: H("3") }, source: { redeem_tx_hash: H("4") } });
    expect(isComplete(both)).toBe(true);
  });

  it("summarises how many swaps completed", () => {
    const result = (completed: boolean) => ({ completed }) as DemoResult;
    expect(demoSummary([result(true), result(false), result(true)])).toBe("2 of 3 swaps completed");
  });
});
