import { describe, expect, it } from "vitest";
import { OrdersInHand } from "../../../src/solver/orders-in-hand.js";

describe("OrdersInHand", () => {
  it("lets one pass hold an order at a time", () => {
    const inHand = new OrdersInHand();
    expect(inHand.take("o1")).toBe(true);
    expect(inHand.take("o1")).toBe(false);
    expect(inHand.take("o2")).toBe(true);
    inHand.release(["o1"]);
    expect(inHand.take("o1")).toBe(true);
  });

  it("hands back, once, an order a new block wanted while another pass held it", () => {
    const inHand = new OrdersInHand();
    inHand.take("o1");
    inHand.take("o2");
    expect(inHand.take("o1", true)).toBe(false);
    expect(inHand.take("o1", true)).toBe(false);
    expect(inHand.take("o2")).toBe(false);
    expect(inHand.release(["o1", "o2"])).toEqual(["o1"]);
    inHand.take("o1");
    expect(inHand.release(["o1"])).toEqual([]);
  });
});
