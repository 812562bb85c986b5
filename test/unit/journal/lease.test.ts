import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import {
  LeaseHeldError,
  LeaseLostError,
  newLeaseHolder,
  type LeaseHolder,
} from "../../../src/journal/lease.js";
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

const holder = (id: string, pid = 1, host = "h"): LeaseHolder => ({ id, host, pid });

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
    expect(a.acquireLease(holder("first", 41), TTL, 1_000)).toEqual({ tookOverFrom: null });
    expect(() => b.acquireLease(holder("second"), TTL, 5_000)).toThrow(LeaseHeldError);
    expect(() => b.acquireLease(holder("second"), TTL, 5_000)).toThrow(
      /another solver \(instance first on h, pid 41\), whose lease runs until 1970-01-01T00:00:11.000Z/,
    );
  });

  it("says why an instance does not hold it: never taken, lapsed unrenewed, taken over, released", () => {
    const [a, b] = pair();
    expect(a.leaseProblem(1_000)).toBe("this instance has not taken the lease");
    a.acquireLease(holder("first"), TTL, 1_000);
    expect(a.leaseProblem(10_999)).toBeNull();
    expect(a.leaseProblem(11_000)).toBe("lapsed 0 ms ago without a renewal");
    b.acquireLease(holder("second", 7, "other"), TTL, 12_000);
    expect(a.leaseProblem(12_000)).toBe("held by another instance (second on other, pid 7)");
    expect(b.leaseProblem(12_000)).toBeNull();
    b.releaseLease();
    expect(a.leaseProblem(12_000)).toBe("no lease is held");
  });

  it("takes over a lease once its heartbeat deadline has passed, not before", () => {
    const [a, b] = pair();
    a.acquireLease(holder("first"), TTL, 1_000);
    a.renewLease(8_000);
    const held = (() => {
      try {
        b.acquireLease(holder("second"), TTL, 17_999);
      } catch (error) {
        return error;
      }
    })();
    expect(held).toBeInstanceOf(LeaseHeldError);
    expect((held as LeaseHeldError).deadlineMs).toBe(18_000);
    expect(b.acquireLease(holder("second"), TTL, 18_000).tookOverFrom).toMatchObject({ id: "first" });
  });

  it("is not taken over before its deadline whatever host and pid it names (containers sharing a hostname)", () => {
    // A lease naming this very host, with a pid no process here has, and one naming this process's own pid:
    // another container's solver, whose pid namespace this one cannot see into.
    for (const pid of [2 ** 22 + 7, process.pid]) {
      const [a, b] = pair();
      a.acquireLease(holder("other-container", pid, hostname()), TTL, 1_000);
      expect(() => b.acquireLease(holder("this-container", pid, hostname()), TTL, 1_001)).toThrow(
        LeaseHeldError,
      );
      expect(() => b.acquireLease(holder("this-container", pid, hostname()), TTL, 10_999)).toThrow(
        LeaseHeldError,
      );
      expect(
        b.acquireLease(holder("this-container", pid, hostname()), TTL, 11_000).tookOverFrom,
      ).toMatchObject({ id: "other-container" });
    }
  });

  it("lapses at its holder's own period, whatever the next solver's", () => {
    const [a, b] = pair();
    a.acquireLease(holder("first"), 60_000, 1_000);
    expect(() => b.acquireLease(holder("second"), TTL, 20_000)).toThrow(
      /runs until 1970-01-01T00:01:01.000Z/,
    );
    expect(b.acquireLease(holder("second"), TTL, 61_000).tookOverFrom).toMatchObject({ id: "first" });
    // A lease written before the period was kept lapses at the next solver's period.
    const [c, d] = pair();
    c.acquireLease(holder("older"), 60_000, 1_000);
    c.database.prepare("UPDATE lease SET ttl_ms = NULL").run();
    expect(d.acquireLease(holder("newer"), TTL, 11_000).tookOverFrom).toMatchObject({ id: "older" });
  });

  it("is held by a random instance id: two starts on one host and pid are two holders", () => {
    const first = newLeaseHolder("h", 41);
    const second = newLeaseHolder("h", 41);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(second.id).not.toBe(first.id);
    const [a, b] = pair();
    a.acquireLease(first, TTL, 1_000);
    expect(() => b.acquireLease(second, TTL, 1_001)).toThrow(LeaseHeldError);
  });

  it("fences the instance it was taken from: no claim, no signed transaction, no renewal", () => {
    const [a, b] = pair();
    a.upsertOrder(order);
    a.acquireLease(holder("first"), TTL, 1_000);
    const claimed = a.claimAction(fill, 1_000, ownSource(fill));
    if (!claimed.ok) throw new Error("claim refused");
    b.acquireLease(holder("second"), TTL, 20_000);
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
    a.acquireLease(holder("first"), TTL, 1_000);
    a.releaseLease();
    expect(b.acquireLease(holder("second"), TTL, 1_001)).toEqual({ tookOverFrom: null });
  });
});
