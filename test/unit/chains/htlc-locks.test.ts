import { describe, expect, it } from "vitest";
import {
  earliestRefundHeight,
  lockDepth,
  MAX_LOCKS_PER_HTLC,
  ownLocks,
  refundableLocks,
  usableLocks,
} from "../../../src/chains/htlc-locks.js";
import { htlcState, lock } from "../../support/order-fixture.js";

const spent = { kind: "redeem" as const, txid: "r", height: 120n };

describe("HTLC locks", () => {
  it("counts depth per lock, zero while unmined or above the tip", () => {
    expect(lockDepth(lock({ value: 1n, height: 100n }), 105n)).toBe(6);
    expect(lockDepth(lock({ value: 1n, height: null }), 105n)).toBe(0);
    expect(lockDepth(lock({ value: 1n, height: 110n }), 105n)).toBe(0);
  });

  it("uses only unspent locks worth spending at the asked depth, largest first, at most eight", () => {
    const locks = [
      lock({ id: "a", value: 5n, height: 100n }),
      lock({ id: "b", value: 9n, height: 104n }),
      lock({ id: "c", value: 50n, height: null }),
      lock({ id: "d", value: 70n, height: 90n, spend: spent }),
      lock({ id: "e", value: 80n, height: 90n, worthSpending: false }),
    ];
    const state = htlcState({ locks });
    expect(usableLocks(state, 105n, 1).map((l) => l.id)).toEqual(["b", "a"]);
    expect(usableLocks(state, 105n, 3).map((l) => l.id)).toEqual(["a"]);
    // Depth 0 still means mined: an unconfirmed lock is never usable.
    expect(usableLocks(state, 105n, 0).map((l) => l.id)).toEqual(["b", "a"]);
    const many = htlcState({
      locks: Array.from({ length: 12 }, (_, i) => lock({ id: `m${i}`, value: BigInt(i + 1) })),
    });
    const used = usableLocks(many, 105n, 1);
    expect(used).toHaveLength(MAX_LOCKS_PER_HTLC);
    expect(used[0]?.value).toBe(12n);
    expect(used.at(-1)?.value).toBe(5n);
  });

  it("refunds only mined, unspent locks past their own lock, as of the next block", () => {
    const locks = [
      lock({ id: "due", value: 10n, height: 10n, refundableAtHeight: 106n }),
      lock({ id: "young", value: 10n, height: 50n, refundableAtHeight: 107n }),
      lock({ id: "pending", value: 10n, height: null, refundableAtHeight: null }),
      lock({ id: "gone", value: 10n, height: 10n, refundableAtHeight: 20n, spend: spent }),
    ];
    expect(refundableLocks(locks, 105n).map((l) => l.id)).toEqual(["due"]);
    expect(earliestRefundHeight(locks)).toBe(20n);
    expect(earliestRefundHeight([locks[2]!])).toBeNull();
  });

  it("knows its own locks by the transactions it journaled; an account chain's one record is its own", () => {
    const theirs = lock({ id: "x:0", fundingTx: "x", value: 1n });
    const ours = lock({ id: "o:1", fundingTx: "o", value: 1n });
    const record = lock({ id: "swap", fundingTx: null, value: 1n });
    expect(ownLocks([theirs, ours], new Set(["o"]))).toEqual([ours]);
    expect(ownLocks([record], new Set())).toEqual([record]);
  });
});
