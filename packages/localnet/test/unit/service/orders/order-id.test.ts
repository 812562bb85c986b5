import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serviceOrderId } from "../../../../src/service/orders/order-id.js";

describe("serviceOrderId", () => {
  it("is sha256 of `<source>:<destination>:<nonce>` as 64 hex", () => {
    const id = serviceOrderId("aa", "bb", "7");
    expect(id).toBe(createHash("sha256").update("aa:bb:7").digest("hex"));
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(serviceOrderId("a", "ab", "1")).not.toBe(serviceOrderId("aa", "b", "1"));
  });
});
