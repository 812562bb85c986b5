import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { LeaseHeldError, LeaseLostError, type LeaseHolder } from "../../../src/journal/lease.js";
import { ownSource } from "../../support/journal-claims.js";
import { evmTerms } from "../../support/memory-journal.js";
import { makeOrder } from "../../support/order-fixture.js";

const TTL = 10_000;
const opened: Journal[] = [];
afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

function pair(): [Journal, Journal] {
  const path = join(mkdtempSync(join(tmpdir(), "lease-")), "journal.sqlite");
  const a = new Journal(path);
  const b = new Journal(path);
  opened.push(a, b);
  return [a, b];
}

const holder = (id: string, pid = 1): LeaseHolder => ({ id, host: "h", pid });
const alive = () => true;
const dead = () => false;

const order = makeOrder();
const fill: ActionRequest = {
  kind: "fill",
  orderId: order.order_id,
  params: {
    chain: "arbitrum_localnet",
    asset: "arbitrum_localnet:usdc",
    swapId: "bb".repeat(32),
    initiator: "0xa1",
    redeemer: "0xb2",
    secretHash: "cd".repeat(32),
    timelock: 600n,
    amount: 990_000n,
  },
};

describe("the journal lease", () => {
  it("refuses a second solver while the first holds a fresh lease, naming it", () => {
    const [a, b] = pair();
    expect(a.acquireLease(holder("first", 41), TTL, alive, 1_000)).toEqual({ tookOverFrom: null });
    expect(() => b.acquireLease(holder("second"), TTL, alive, 5_000)).toThrow(LeaseHeldError);
    expect(() => b.acquireLease(holder("second"), TTL, alive, 5_000)).toThrow(/h, pid 41, lease first/);
  });

  it("takes over a lease whose holder stopped renewing it, or whose process is gone", () => {
    const [a, b] = pair();
    a.acquireLease(holder("first"), TTL, alive, 1_000);
    a.renewLease(8_000);
    expect(() => b.acquireLease(holder("second"), TTL, alive, 17_999)).toThrow(LeaseHeldError);
    expect(b.acquireLease(holder("second"), TTL, alive, 18_000).tookOverFrom).toMatchObject({ id: "first" });
    const [c, d] = pair();
    c.acquireLease(holder("first"), TTL, alive, 1_000);
    expect(d.acquireLease(holder("second"), TTL, dead, 1_001).tookOverFrom).toMatchObject({ id: "first" });
  });

  it("fences the instance it was taken from: no claim, no signed transaction, no renewal", () => {
    const [a, b] = pair();
    a.upsertOrder(order);
    a.acquireLease(holder("first"), TTL, alive, 1_000);
    const claimed = a.claimAction(fill, 1_000, ownSource(fill));
    if (!claimed.ok) throw new Error("claim refused");
    b.acquireLease(holder("second"), TTL, alive, 20_000);
    expect(() => a.renewLease(20_001)).toThrow(LeaseLostError);
    expect(() => a.claimAction({ ...fill, kind: "redeem" }, 20_002)).toThrow(/took over the journal lease/);
    const tx = { chain: "arbitrum_localnet", txHash: "0x01", raw: "0x", nonce: 1n, terms: evmTerms() };
    expect(() => a.recordSigned([claimed.action.id], tx, 20_003)).toThrow(LeaseLostError);
    expect(b.liveAttempts("arbitrum_localnet")).toEqual([]);
    // The new holder works as usual.
    expect(b.recordSigned([claimed.action.id], tx, 20_004).state).toBe("signed");
  });

  it("is given back on a clean stop, so the next start needs no wait", () => {
    const [a, b] = pair();
    a.acquireLease(holder("first"), TTL, alive, 1_000);
    a.releaseLease();
    expect(b.acquireLease(holder("second"), TTL, alive, 1_001)).toEqual({ tookOverFrom: null });
  });
});
