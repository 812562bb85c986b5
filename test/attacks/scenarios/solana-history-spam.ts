/** Thousands of transactions naming a Solana fill's swap account, then the redeem, while the solver is down. */
import { describe, expect, it } from "vitest";
import { feeOf, SOL } from "../../e2e/swaps/solana-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, type AttackNet } from "../support/attack-net.js";
import {
  expectSolverPaidAndWasPaid,
  filledSolanaOrder,
  serviceSaysNothingOfTheRedeem,
} from "../support/solana-fill.js";
import { solanaSwapAccount, spamAddress } from "../support/solana-moves.js";

/**
 * Landed junk transactions the attacker sends: 10,000 when asked (`ATTACK_JUNK_TXS=10000`, minutes of
 * sending on this machine's local chain), fewer in the suite's run. Either way far more than one read's
 * budget, so the solver must carry its position across reads and the restart.
 */
const JUNK = Number(process.env.ATTACK_JUNK_TXS ?? 2_000);

export function solanaHistorySpam(net: () => AttackNet): void {
  describe("solana: thousands of transactions naming the fill's swap account, then the redeem, while the solver is down", () => {
    it("hides nothing: after a restart the solver reads past them and redeems its source in time", async () => {
      const t = net();
      const o = await filledSolanaOrder(t, 1);
      const { user, order, secret } = o;
      serviceSaysNothingOfTheRedeem(t, order);
      const config = { ...t.net.solverConfig, service: { ...t.net.solverConfig.service, url: t.proxy.url } };
      await t.net.solver!.stop();

      // Landed junk first (each costs the attacker a fee), failed junk after, then the plain redeem.
      const account = solanaSwapAccount(user, o.filled.destination_swap);
      const spamStarted = Date.now();
      const spamCost =
        spamAddress(t, user, account, JUNK) + spamAddress(t, user, account, 100, { failing: true });
      const spamSeconds = (Date.now() - spamStarted) / 1000;
      const redeemTx = await user.redeemSolanaDestination(o.filled, secret);

      const restarted = Date.now();
      await t.net.startSolver(config);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        240_000,
      );
      const tookSeconds = (Date.now() - restarted) / 1000;
      const redeem = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem")!;
      expect(redeem.request.secret).toBe(secret.slice(2));
      // In time: well before the user could take the source back.
      expect(redeem.request.mustConfirmByMs).toBeGreaterThan(Date.now());
      console.log(
        `hidden redeem: ${JUNK} + 100 failed junk transactions sent in ${spamSeconds.toFixed(1)} s for ` +
          `${spamCost} lamports; the restarted solver redeemed its source ${tookSeconds.toFixed(1)} s later`,
      );
      t.proxy.stopLying(order.order_id);
      await expectSolverPaidAndWasPaid(t, o);
      expect((await user.balance(SOL)) - o.before.userSol).toBe(o.amount - spamCost - feeOf(t, redeemTx));
    }, 300_000);
  });
}
