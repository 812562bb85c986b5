/**
 * Re-use after close on Sui. The `AtomicSwap` module keeps every order it took as a dynamic field of the
 * registry, fulfilled ones included (`is_fulfilled`, no coins left), and `initiate` aborts with code 7 when
 * the id is already a field: an order id can never be initiated again. A user who locks a completed Sui
 * source's terms a second time is refused by the module and the solver fills nothing more; the same holds
 * for a Sui destination the user redeemed, whose terms the user funds again from a second account of theirs
 * (the module forbids only funder = redeemer). Sui's instant refund carries no signature that could be
 * replayed: the redeemer sends it itself.
 */
import { describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, solverRounds, type AttackNet } from "../support/attack-net.js";
import {
  initiateFrom,
  outcomeOf,
  secondSuiAccount,
  suiAccountOf,
  suiRegistry,
  termsOf,
} from "../support/sui-moves-a.js";
import { SUI, suiBalance, suiGas, suiGasOfAction, solverSui } from "../../e2e/swaps/sui-support.js";

const EVM = "arbitrum_localnet:wbtc";
const SUI_AMOUNT = 50_000_000_000n;

async function balances(t: AttackNet, user: LocalUser) {
  return {
    userSui: suiBalance(t, SUI, user.sui.address),
    userEvm: await user.balance(EVM),
    solverSui: solverSui(t),
    solverEvm: await solverHolds(t, EVM),
  };
}

export function suiReuseAfterClose(net: () => AttackNet): void {
  describe("attack: the user locks a completed Sui source's terms again", () => {
    it("is refused by the module (abort 7: the id stays a field) and the solver fills nothing more", async () => {
      const t = net();
      const user = t.user(0);
      const o: Order = await user.createOrder(await user.bestQuote(SUI, EVM, SUI_AMOUNT));
      const before = await balances(t, user);
      const lock = await user.initiateSui(o);
      await waitFor(
        () => journaled(t, o).join() === "fill:confirmed,redeem:confirmed",
        "the swap to complete",
        90_000,
      );
      const again = await initiateFrom(suiAccountOf(user), suiRegistry(t), termsOf(o.source_swap));
      expect(outcomeOf(again)).toBe("abort 7");
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      // The refused lock cost the user its gas and nothing else; the solver nothing at all.
      const destination = BigInt(o.destination_swap.amount);
      expect(await balances(t, user)).toEqual({
        userSui: before.userSui - SUI_AMOUNT - (await suiGas(t, lock)) - (await suiGas(t, again.digest)),
        userEvm: before.userEvm + destination,
        solverSui: before.solverSui + SUI_AMOUNT - (await suiGasOfAction(t, o.order_id, "redeem")),
        solverEvm: before.solverEvm - destination,
      });
    }, 120_000);
  });

  describe("attack: the user funds a redeemed Sui destination's terms again from a second account", () => {
    it("is refused by the module (abort 7) and the solver, its initiator, is owed and sends nothing", async () => {
      const t = net();
      const user = t.user(1);
      const { secret, secretHash } = newUserSecret();
      const amount = 1_000_000n;
      const o = await user.createOrder(await user.bestQuote(EVM, SUI, amount), { secretHash });
      const before = await balances(t, user);
      await user.initiateOnChain(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill", 60_000);
      const redeem = await user.redeemSuiDestination(o, secret);
      await waitFor(
        () => journaled(t, o).join() === "fill:confirmed,redeem:confirmed",
        "the source redeem",
        60_000,
      );
      const second = secondSuiAccount(t);
      const secondBefore = suiBalance(t, SUI, second.address);
      const again = await initiateFrom(second, suiRegistry(t), termsOf(o.destination_swap));
      expect(outcomeOf(again)).toBe("abort 7");
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      expect(secondBefore - suiBalance(t, SUI, second.address)).toBe(await suiGas(t, again.digest));
      const filled = BigInt(o.destination_swap.amount);
      expect(await balances(t, user)).toEqual({
        userSui: before.userSui + filled - (await suiGas(t, redeem)),
        userEvm: before.userEvm - amount,
        solverSui: before.solverSui - filled - (await suiGasOfAction(t, o.order_id, "fill")),
        solverEvm: before.solverEvm + amount,
      });
    }, 120_000);
  });
}
