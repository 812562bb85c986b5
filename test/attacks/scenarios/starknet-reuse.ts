/**
 * Re-use after close on Starknet. An HTLC keeps every order it took, fulfilled ones included, so an order
 * id can never be initiated again: a user who locks a completed source's terms a second time is refused
 * by the contract ("HTLC: duplicate order") and the solver fills nothing more. What can be re-used is a
 * signature: the deployed contract's SNIP-12 `instantRefund` carries only the order id, and its id does
 * not hash the HTLC's address, so the same terms at a second HTLC of the chain have the same id and the
 * instant refund the solver signed for one verifies at the other. The user can only take back their own
 * lock with it (an instant refund pays the initiator), and the solver never counted a lock at a contract
 * it does not read: it loses nothing. The audited contract hashes the HTLC into the id and signs
 * `verifyingContract`: the replay is refused.
 */
import { describe, expect, it } from "vitest";
import type { OrderIdLayout } from "../../../src/chains/starknet/order-id.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, solverRounds, type AttackNet } from "../support/attack-net.js";
import {
  declineStarknetSource,
  feeOfReceipt,
  initiateAt,
  instantRefundAt,
  publishedInstantRefundSignature,
  secondHtlc,
  starknetAssetOf,
  succeeded,
  swapIdAt,
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

async function balances(t: AttackNet, user: LocalUser) {
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

/** A completed Starknet source locked again with the same terms. */
function closedOrderIdAgain(net: () => AttackNet): void {
  describe("attack: the user locks a completed Starknet source's terms again", () => {
    it("is refused by the contract (the id stays taken) and the solver fills nothing more", async () => {
      const t = net();
      const user = t.user(0);
      const o = await order(user);
      const before = await balances(t, user);
      const lock = await user.initiateStarknet(o);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the swap to complete", 90_000);
      const filled = await balances(t, user);

      const again = await initiateAt(t, user, o.source_swap);
      expect([again.execution_status, again.revert_reason]).toEqual([
        "REVERTED",
        expect.stringContaining("HTLC: duplicate order"),
      ]);
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      // The refused lock cost the user its fee and nothing else; the solver nothing at all.
      expect(await balances(t, user)).toEqual({
        ...filled,
        userStrk: filled.userStrk - feeOfReceipt(again),
      });
      const destination = BigInt(o.destination_swap.amount);
      expect(await balances(t, user)).toEqual({
        userWbtc: before.userWbtc - AMOUNT,
        userStrk: before.userStrk - (await starknetFee(t, lock)) - feeOfReceipt(again),
        userTo: before.userTo + destination,
        solverWbtc: before.solverWbtc + AMOUNT,
        solverStrk: before.solverStrk - (await starknetFeeOfAction(t, o.order_id, "redeem")),
        solverTo: before.solverTo - destination,
      });
    }, 120_000);
  });
}

/**
 * The user locks the terms at the configured HTLC and at a second one of the same token, has the solver
 * decline the first (the service says the order's deadline passed) and so sign and send its instant
 * refund, then sends that signature, read from the chain, to the second HTLC.
 */
function instantRefundReplayed(net: () => AttackNet, layout: OrderIdLayout): void {
  const replays = layout === "deployed";
  describe(`attack: the solver's instant refund signature replayed at a second HTLC (${layout} layout)`, () => {
    it(
      replays
        ? "verifies there (no contract in the signed message): the user only takes their own lock back; the solver loses nothing"
        : "is refused there: the audited message and order id bind the HTLC",
      async () => {
        const t = net();
        const user = t.user(1);
        const o = await order(user);
        const before = await balances(t, user);
        const other = secondHtlc(t, o.source_swap);
        const elsewhere = succeeded(await initiateAt(t, user, o.source_swap, other));
        const { refundTx, lock } = await declineStarknetSource(t, user, o);
        expect(starknetBalance(t, STARKNET_WBTC, other)).toBe(AMOUNT);

        // The user's order at the second HTLC: the same id under the deployed layout, another under the audited.
        const idThere = swapIdAt(t, o.source_swap, other);
        expect(idThere === o.source_swap.swap_id).toBe(replays);
        const signature = await publishedInstantRefundSignature(t, refundTx);
        const replay = await instantRefundAt(user, other, idThere, signature);
        if (replays) {
          expect(replay.execution_status).toBe("SUCCEEDED");
          expect(starknetBalance(t, STARKNET_WBTC, other)).toBe(0n);
        } else {
          expect([replay.execution_status, replay.revert_reason]).toEqual([
            "REVERTED",
            expect.stringContaining("HTLC: invalid redeemer signature"),
          ]);
          expect(starknetBalance(t, STARKNET_WBTC, other)).toBe(AMOUNT);
        }
        await solverRounds(t, 3);
        expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
        const fees = feeOfReceipt(elsewhere) + (await starknetFee(t, lock)) + feeOfReceipt(replay);
        expect(await balances(t, user)).toEqual({
          ...before,
          // Replayed, both locks came back; refused, the second stays at the HTLC for its own refund.
          userWbtc: before.userWbtc - (replays ? 0n : AMOUNT),
          userStrk: before.userStrk - fees,
          solverStrk: before.solverStrk - (await starknetFeeOfAction(t, o.order_id, "instant_refund")),
        });
        expect(starknetAssetOf(t, o.source_swap).htlc).not.toBe(other);
      },
      120_000,
    );
  });
}

export function starknetReuseAfterClose(net: () => AttackNet, layout: OrderIdLayout = "deployed"): void {
  if (layout === "deployed") closedOrderIdAgain(net);
  instantRefundReplayed(net, layout);
}
