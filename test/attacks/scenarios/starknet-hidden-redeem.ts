/**
 * Hiding the redeem of a Starknet fill while the solver is down and the service silent: after the fill,
 * the attacker fills the blocks with hundreds of real orders of its own on the HTLC (their `Initiated`
 * events), with events shaped exactly like the HTLC's `Redeemed` at the fill's order id
 * from a contract that is not the HTLC (more than a page of them, with another secret), and then redeems
 * the fill from another account's multicall. The restarted solver follows from its own fill forward,
 * attributes events to the configured HTLC only, finds the secret and redeems its source; both sides end
 * at the order's fair outcome.
 */
import { describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import {
  starknetFee,
  solverStarknet,
  solverStrk,
  starknetBalance,
  STARKNET_WBTC,
  strkBalance,
} from "../../e2e/swaps/starknet-support.js";
import { EVENT_KEYS } from "../../../src/chains/starknet/htlc-calls.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, type AttackNet } from "../support/attack-net.js";
import { serviceSaysNothingOfTheRedeem } from "../support/solana-fill.js";
import {
  emitRedeemedLookAlikes,
  initiateUnrelatedOrders,
  redeemInAnotherAccountsMulticall,
} from "../support/starknet-moves-b.js";

const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;
/**
 * Real HTLC orders after the fill: three pages of the HTLC's events (the local chain takes some 30 ms
 * per initiate, so a read's worth of a thousand would take most of the class's time).
 */
const UNRELATED_ORDERS = 300;
/** Look-alike `Redeemed` events: past a page of the solver's spend search (100), many times over. */
const LOOK_ALIKES = 1_500;
/** A contract address no configured chain names. */
const DECOY_CONTRACT = "0x5eed0fdec0";

export function starknetHiddenRedeem(net: () => AttackNet): void {
  describe("starknet: real orders and look-alike Redeemed events past a page, then a redeem in another account's multicall, while the solver is down", () => {
    it("hides nothing: the restarted solver finds the secret from its fill forward and redeems its source", async () => {
      const t = net();
      const user = t.user(0);
      const attacker = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(FROM, STARKNET_WBTC, AMOUNT), { secretHash });
      serviceSaysNothingOfTheRedeem(t, order);
      const amount = BigInt(order.destination_swap.amount);
      const before = {
        userFrom: await user.balance(FROM),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        userStrk: strkBalance(t, user.starknet.address),
        attackerWbtc: starknetBalance(t, STARKNET_WBTC, attacker.starknet.address),
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
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
      const unrelated = await initiateUnrelatedOrders(
        attacker,
        STARKNET_WBTC,
        t.user(1).starknet.address,
        UNRELATED_ORDERS,
      );
      const lookAlikes = await emitRedeemedLookAlikes(
        t,
        DECOY_CONTRACT,
        filled.destination_swap,
        LOOK_ALIKES,
      );
      const fromDecoy = lookAlikes.events.filter((e) => BigInt(e.from_address) === BigInt(DECOY_CONTRACT));
      expect(fromDecoy).toHaveLength(LOOK_ALIKES);
      const redeem = await redeemInAnotherAccountsMulticall(t, attacker, filled.destination_swap, secret);
      const spamSeconds = (Date.now() - spamStarted) / 1000;

      const restarted = Date.now();
      await t.net.startSolver(config);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        120_000,
      );
      const tookSeconds = (Date.now() - restarted) / 1000;
      const redeemAction = t.net
        .solver!.journal.orderActions(order.order_id)
        .find((a) => a.kind === "redeem")!;
      expect(redeemAction.request.secret).toBe(secret.slice(2));
      expect(redeemAction.request.mustConfirmByMs).toBeGreaterThan(Date.now());
      console.log(
        `starknet hidden redeem: ${UNRELATED_ORDERS} orders and ${LOOK_ALIKES} look-alike events sent in ` +
          `${spamSeconds.toFixed(1)} s; the restarted solver redeemed its source ${tookSeconds.toFixed(1)} s later`,
      );
      t.proxy.stopLying(order.order_id);

      // The solver paid the amount and its fill's fee on Starknet and got the whole source.
      const fillTx = t.net
        .solver!.journal.attemptsOfAction(
          t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "fill")!.id,
        )
        .find((a) => a.state === "confirmed")!;
      expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
      expect(before.solverStrk - solverStrk(t)).toBe(await starknetFee(t, fillTx.txHash));
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(BigInt(order.source_swap.amount));
      // The user got the amount once (the attacker's redeem paid it to the stored redeemer) for the source.
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address) - before.userWbtc).toBe(amount);
      expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk);
      expect(before.userFrom - (await user.balance(FROM))).toBe(BigInt(order.source_swap.amount));
      // The attacker's own orders hold its own tokens; it gained nothing of the solver's.
      expect(before.attackerWbtc - starknetBalance(t, STARKNET_WBTC, attacker.starknet.address)).toBe(
        BigInt(UNRELATED_ORDERS),
      );
      const initiated = unrelated
        .flatMap((r) => r.events)
        .filter((e) => BigInt(e.keys[0]!) === EVENT_KEYS.initiated);
      expect(initiated).toHaveLength(UNRELATED_ORDERS);
      expect(redeem.execution_status).toBe("SUCCEEDED");
    }, 300_000);
  });
}
