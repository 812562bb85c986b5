/**
 * Hiding the redeem of a Sui fill while the solver is down and the service silent: after the fill, the
 * attacker emits a thousand events shaped exactly like the AtomicSwap module's `Redeemed` at the fill's
 * order id and secret hash with a wrong secret, from another package's module also named `AtomicSwap`,
 * and then redeems the fill inside a programmable transaction of its own account with look-alikes around
 * the `redeem` call. The restarted solver reads the order field's last transaction, takes only the
 * configured package's `Redeemed` of the order whose secret hashes to the order's, and redeems its
 * source; both sides end at the order's fair outcome.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, type AttackNet } from "../support/attack-net.js";
import { serviceSaysNothingOfTheRedeem } from "../support/solana-fill.js";
import { emitRedeemedLookAlikes, redeemThroughAnotherAccountsPtb } from "../support/sui-moves-b.js";
import { solverSui, SUI, suiBalance, suiGas, suiGasOfAction } from "../../e2e/swaps/sui-support.js";

const FROM = "ethereum_localnet:wbtc";
/** 0.01 WBTC: some 200 SUI at the localnet's prices. */
const AMOUNT = 1_000_000n;
/** Look-alike `Redeemed` events under the order id, in transactions of 250 calls. */
const LOOK_ALIKES = 1_000;

export function suiHiddenRedeem(net: () => AttackNet): void {
  describe("sui: look-alike Redeemed events of another package in bulk, then a redeem in another account's programmable transaction, while the solver is down", () => {
    it("hides nothing: the restarted solver takes the secret from the order's last transaction and redeems its source", async () => {
      const t = net();
      const user = t.user(0);
      const attacker = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const wrongSecret = randomBytes(32);
      const order = await user.createOrder(await user.bestQuote(FROM, SUI, AMOUNT), { secretHash });
      serviceSaysNothingOfTheRedeem(t, order);
      const amount = BigInt(order.destination_swap.amount);
      const before = {
        userFrom: await user.balance(FROM),
        userSui: suiBalance(t, SUI, user.sui.address),
        attackerSui: suiBalance(t, SUI, attacker.sui.address),
        solverSui: solverSui(t),
        solverFrom: await solverHolds(t, FROM),
      };
      await user.initiateOnChain(order);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land", 90_000);
      const filled = await user.waitForOrder(
        order.order_id,
        (o) => o.destination_swap.initiate_tx_hash !== "",
      );
      const config = { ...t.net.solverConfig, service: { ...t.net.solverConfig.service, url: t.proxy.url } };
      await t.net.solver!.stop();

      const spamStarted = Date.now();
      const lookAlikes = await emitRedeemedLookAlikes(
        t,
        attacker,
        filled.destination_swap,
        wrongSecret,
        LOOK_ALIKES,
      );
      const redeem = await redeemThroughAnotherAccountsPtb(
        t,
        attacker,
        filled.destination_swap,
        secret,
        wrongSecret,
      );
      const spamSeconds = (Date.now() - spamStarted) / 1000;

      const restarted = Date.now();
      await t.net.startSolver(config);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        90_000,
      );
      const tookSeconds = (Date.now() - restarted) / 1000;
      const redeemAction = t.net
        .solver!.journal.orderActions(order.order_id)
        .find((a) => a.kind === "redeem")!;
      expect(redeemAction.request.secret).toBe(secret.slice(2));
      console.log(
        `sui hidden redeem: ${LOOK_ALIKES} look-alike events and the redeem sent in ${spamSeconds.toFixed(1)} s; ` +
          `the restarted solver redeemed its source ${tookSeconds.toFixed(1)} s later`,
      );
      t.proxy.stopLying(order.order_id);

      // The solver paid the amount and its fill's gas on Sui and got the whole source.
      expect(before.solverSui - solverSui(t)).toBe(
        amount + (await suiGasOfAction(t, order.order_id, "fill")),
      );
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(BigInt(order.source_swap.amount));
      // The user got the amount once (the attacker's redeem paid the stored redeemer) for the source.
      expect(suiBalance(t, SUI, user.sui.address) - before.userSui).toBe(amount);
      expect(before.userFrom - (await user.balance(FROM))).toBe(BigInt(order.source_swap.amount));
      // The attacker paid its own transactions' gas and gained nothing.
      let attackerGas = await suiGas(t, redeem);
      for (const digest of lookAlikes) attackerGas += await suiGas(t, digest);
      expect(before.attackerSui - suiBalance(t, SUI, attacker.sui.address)).toBe(attackerGas);
    }, 240_000);
  });
}
