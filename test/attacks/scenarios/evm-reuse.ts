/**
 * Re-use after close on the EVM chains: once a swap completed, its destination order id initiated again
 * (the funder naming the solver, as a fill would), its source terms locked again, and the user's EIP-712
 * initiation replayed to the service and straight to the contract. The contract keeps every order id it
 * ever took, so each is refused; the solver neither fills nor redeems a second time; no balance moves.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, redeemAndSettle, solverRounds, type AttackNet } from "../support/attack-net.js";
import {
  approveToken,
  initiateOnBehalf,
  initiateWithSignatureOn,
  lockOn,
  settled,
  storedOrder,
  swapBalances,
} from "../support/evm-moves.js";

const FROM = "ethereum_localnet:usdc";
const TO = "arbitrum_localnet:usdc";
const AMOUNT = 100_000_000n;
const SETTLED = ["fill:confirmed", "redeem:confirmed"];

export function evmReuseAfterClose(net: () => AttackNet): void {
  let t: AttackNet;
  let user: LocalUser;
  /** The attacker's second account: the contract refuses a funder who is the order's redeemer. */
  let attacker: LocalUser;
  let o: Order;
  let signature: Hex;
  let before: Awaited<ReturnType<typeof swapBalances>>;

  /** Both of the attacker's accounts and the solver, as the swap left them. */
  async function balancesNow() {
    return [await swapBalances(t, user, FROM, TO), await attacker.balance(FROM), await attacker.balance(TO)];
  }

  describe("attack: a completed EVM swap's order ids and signed initiation used again", () => {
    beforeAll(async () => {
      t = net();
      user = t.user(1);
      attacker = t.user(2);
      const { secret, secretHash } = newUserSecret();
      o = await user.createOrder(await user.bestQuote(FROM, TO, AMOUNT), { secretHash });
      await approveToken(t, user, FROM);
      await approveToken(t, attacker, TO);
      await approveToken(t, attacker, FROM);
      before = await swapBalances(t, user, FROM, TO);
      signature = await user.signInitiate(o);
      await t.orderbook.initiate(o.order_id, signature);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined", 60_000);
      await redeemAndSettle(t, user, o, secret);
    }, 120_000);

    it("settles once at its fair outcome", async () => {
      expect(journaled(t, o)).toEqual(SETTLED);
      expect(await swapBalances(t, user, FROM, TO)).toEqual(await settled(t, o, before));
      const destination = await storedOrder(t, TO, o.destination_swap.swap_id);
      expect(destination.fulfilledAt).toBeGreaterThan(0n);
    });

    it("is refused at a known order id: the destination's and the source's terms cannot be initiated again", async () => {
      const after = await balancesNow();
      // The destination's exact terms in the solver's name (the id a fill takes), and the source's again.
      await expect(initiateOnBehalf(t, attacker, o.destination_swap)).rejects.toThrow(/DuplicateOrder/);
      await expect(lockOn(t, user, o.source_swap)).rejects.toThrow(/DuplicateOrder/);
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(SETTLED);
      expect(await balancesNow()).toEqual(after);
    });

    it("is refused when the user's signed initiation is replayed to the service or to the contract", async () => {
      const after = await balancesNow();
      await expect(t.orderbook.initiate(o.order_id, signature)).rejects.toThrow(
        /already initiated|no longer/,
      );
      await expect(
        initiateWithSignatureOn(t, attacker, user.address, o.source_swap, signature),
      ).rejects.toThrow(/DuplicateOrder/);
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(SETTLED);
      expect(await balancesNow()).toEqual(after);
    });
  });
}
