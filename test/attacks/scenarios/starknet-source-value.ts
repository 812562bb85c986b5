/**
 * Source value that is not there, on a Starknet source, each attack made as a user (with a service that
 * says what the user wants it to say) and checked on both sides' balances: a source not yet as deep as
 * the solver requires (blocks held), the order's terms locked at a second HTLC of the same token that the
 * solver does not read, and a source the solver declined and gave back with its instant refund, offered
 * again (the contract keeps the refunded order: its id cannot be locked a second time).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import {
  declineStarknetSource,
  deeperStarknetSources,
  feeOfReceipt,
  initiateAt,
  initiatedAt,
  mineUntilPast,
  refundAt,
  secondHtlc,
  STARKNET_SOURCE_DEPTH,
  succeeded,
} from "../support/starknet-moves-a.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  STARKNET_WBTC,
  strkBalance,
} from "../../e2e/swaps/starknet-support.js";

const TO = "arbitrum_localnet:wbtc";
const AMOUNT = 1_000_000n;

let t: AttackNet;

async function balances(user: LocalUser) {
  return {
    userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
    userStrk: strkBalance(t, user.starknet.address),
    userTo: await user.balance(TO),
    solverWbtc: solverStarknet(t, STARKNET_WBTC),
    solverStrk: solverStrk(t),
    solverTo: await solverHolds(t, TO),
  };
}

async function order(user: LocalUser): Promise<Order> {
  return user.createOrder(await user.bestQuote(STARKNET_WBTC, TO, AMOUNT));
}

export function starknetSourceValue(): void {
  beforeAll(async () => {
    t = await startAttackNet({}, deeperStarknetSources);
  });
  afterAll(async () => {
    t?.net.starknet.local.resume();
    await stopAttackNet(t);
  });

  describe("attack: a Starknet source initiated but not yet at the solver's depth", () => {
    it("waits until the lock is as deep as the solver requires, then fills; each side its fair share", async () => {
      const user = t.user(0);
      const o = await order(user);
      const destination = BigInt(o.destination_swap.amount);
      const before = await balances(user);
      const local = t.net.starknet.local;
      local.pause();
      const locking = user.initiateStarknet(o);
      const sender = BigInt(user.starknet.address);
      await waitFor(() => local.chain.mempool.waitingOf(sender).length > 0, "the lock to wait for a block");
      local.mineBlock();
      const lock = await locking;
      const depth = () =>
        Number(local.chain.latest().number) -
        Number(local.chain.includedTransaction(BigInt(lock))!.blockNumber) +
        1;

      await solverRounds(t, 3);
      expect(depth()).toBe(1);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");
      expect(t.net.solver!.journal.lastDecision(o.order_id)?.detail).toContain(
        `with ${STARKNET_SOURCE_DEPTH} confirmations`,
      );

      // One block short of the solver's depth: still nothing.
      local.mineBlock(STARKNET_SOURCE_DEPTH - 2);
      await solverRounds(t, 3);
      expect(depth()).toBe(STARKNET_SOURCE_DEPTH - 1);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");

      // At its depth the source backs a fill; the service redeems it for the user, the solver its source.
      local.resume();
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 90_000);
      expect(await balances(user)).toEqual({
        userWbtc: before.userWbtc - AMOUNT,
        userStrk: before.userStrk - (await starknetFee(t, lock)),
        userTo: before.userTo + destination,
        solverWbtc: before.solverWbtc + AMOUNT,
        solverStrk: before.solverStrk - (await starknetFeeOfAction(t, o.order_id, "redeem")),
        solverTo: before.solverTo - destination,
      });
    }, 120_000);
  });

  describe("attack: the source locked at a second HTLC of the token, the service saying it is locked", () => {
    it("is not a source: the solver reads the configured HTLC only, and fills nothing", async () => {
      const user = t.user(1);
      const o = await order(user);
      const before = await balances(user);
      const other = secondHtlc(t, o.source_swap);
      const lock = succeeded(await initiateAt(t, user, o.source_swap, other));
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.status = "Initiated";
        lied.source_swap.initiate_tx_hash = lock.transaction_hash;
        lied.source_swap.initiate_block_number = String(lock.block_number);
        lied.source_swap.filled_amount = lied.source_swap.amount;
        lied.source_swap.current_confirmations = lied.source_swap.required_confirmations + 100;
      });
      await waitFor(() => lastReason(t, o) === "source_not_initiated", "the solver to look for the source");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_not_initiated");
      expect(await balances(user)).toEqual({
        ...before,
        userWbtc: before.userWbtc - AMOUNT,
        userStrk: before.userStrk - feeOfReceipt(lock),
      });

      // The lock is real, at the second HTLC: the user takes it back once it expired, less two fees.
      const at = await initiatedAt(t, other, o.source_swap);
      await mineUntilPast(t, at + BigInt(o.source_swap.timelock));
      const refund = succeeded(await refundAt(user, other, o.source_swap));
      t.proxy.stopLying(o.order_id);
      expect(await balances(user)).toEqual({
        ...before,
        userStrk: before.userStrk - feeOfReceipt(lock) - feeOfReceipt(refund),
      });
    }, 120_000);
  });

  describe("attack: the user locks the same terms again after the solver's instant refund", () => {
    it("cannot: the contract keeps the refunded order, the solver fills nothing and paid only its refund", async () => {
      const user = t.user(2);
      const o = await order(user);
      const before = await balances(user);
      const { lock } = await declineStarknetSource(t, user, o);
      await waitFor(() => lastReason(t, o) !== "deadline_passed", "the solver to see the source closed");

      const again = await initiateAt(t, user, o.source_swap);
      expect([again.execution_status, again.revert_reason]).toEqual([
        "REVERTED",
        expect.stringContaining("HTLC: duplicate order"),
      ]);
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      expect(await balances(user)).toEqual({
        ...before,
        userStrk: before.userStrk - (await starknetFee(t, lock)) - feeOfReceipt(again),
        solverStrk: before.solverStrk - (await starknetFeeOfAction(t, o.order_id, "instant_refund")),
      });
    }, 120_000);
  });
}
