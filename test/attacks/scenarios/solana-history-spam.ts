/** Thousands of transactions naming a Solana fill's swap account, then the redeem, while the solver is down. */
import { beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "../../../src/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, type AttackNet } from "../support/attack-net.js";
import { feeOf, SOL, solverSolana } from "../../e2e/swaps/solana-support.js";
import { solanaSwapAccount, spamAddress } from "../support/solana-moves.js";

let t: AttackNet;

/**
 * Landed junk transactions the attacker sends: 10,000 when asked (`ATTACK_JUNK_TXS=10000`, about a minute
 * of sending on this machine's local chain), fewer in the suite's run. Either way far more than one read's
 * budget, so the solver must carry its position across reads and the restart.
 */
const JUNK = Number(process.env.ATTACK_JUNK_TXS ?? 2_000);

/** The solver sees no secret and no redeem of the order at the service: what it learns, it reads on chain. */
function serviceSaysNothingOfTheRedeem(order: Order): void {
  t.proxy.lieAbout(order.order_id, (lied) => {
    for (const swap of [lied.source_swap, lied.destination_swap]) {
      swap.secret = "";
      swap.redeem_tx_hash = "";
    }
    if (lied.status === "Redeemed" || lied.status === "RedeemDetected") lied.status = "AwaitingRedeem";
  });
}

export function solanaHistorySpam(net: () => AttackNet): void {
  beforeAll(() => {
    t = net();
  });
  describe("solana: thousands of transactions naming the fill's swap account, then the redeem, while the solver is down", () => {
    it("hides nothing: after a restart the solver reads past them and redeems its source in time", async () => {
      const SOURCE = "ethereum_localnet:usdc";
      const user = t.user(1);
      const { secret, secretHash } = newUserSecret();
      const quote = await user.bestQuote(SOURCE, SOL, 300_000_000n);
      const order = await user.createOrder(quote, { secretHash });
      const amount = BigInt(order.destination_swap.amount);
      const solverUsdc = () => t.net.solver!.chains.get("ethereum_localnet")!.executor.balance(SOURCE);
      const [userSol, userUsdc, solverSol, solverUsdcBefore] = [
        await user.balance(SOL),
        await user.balance(SOURCE),
        await solverSolana(t, SOL),
        await solverUsdc(),
      ];
      await user.initiateWithSignature(order);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land");
      const filled = await user.waitForOrder(
        order.order_id,
        (o) => o.destination_swap.initiate_tx_hash !== "",
      );
      serviceSaysNothingOfTheRedeem(order);
      const config = { ...t.net.solverConfig, service: { ...t.net.solverConfig.service, url: t.proxy.url } };
      await t.net.solver!.stop();

      // Landed junk first (each costs the attacker a fee), failed junk after, then the plain redeem.
      const account = solanaSwapAccount(user, filled.destination_swap);
      const spamStarted = Date.now();
      const spamCost =
        spamAddress(t, user, account, JUNK) + spamAddress(t, user, account, 100, { failing: true });
      const spamSeconds = (Date.now() - spamStarted) / 1000;
      const redeemTx = await user.redeemSolanaDestination(filled, secret);

      const restarted = Date.now();
      await t.net.startSolver(config);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        240_000,
      );
      const tookSeconds = (Date.now() - restarted) / 1000;
      const journal = t.net.solver!.journal;
      const redeem = journal.orderActions(order.order_id).find((a) => a.kind === "redeem")!;
      expect(redeem.request.secret).toBe(secret.slice(2));
      // In time: well before the user could take the source back.
      expect(redeem.request.mustConfirmByMs).toBeGreaterThan(Date.now());
      console.log(
        `hidden redeem: ${JUNK} + 100 failed junk transactions sent in ${spamSeconds.toFixed(1)} s for ${spamCost} lamports; ` +
          `the restarted solver redeemed its source ${tookSeconds.toFixed(1)} s later`,
      );

      const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      const fillTx = journal.attemptsOfAction(fill.id).find((a) => a.state === "confirmed")!;
      expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + feeOf(t, fillTx.txHash));
      expect((await solverUsdc()) - solverUsdcBefore).toBe(300_000_000n);
      expect((await user.balance(SOL)) - userSol).toBe(amount - spamCost - feeOf(t, redeemTx));
      expect(userUsdc - (await user.balance(SOURCE))).toBe(300_000_000n);
      t.proxy.stopLying(order.order_id);
    }, 300_000);
  });
}
