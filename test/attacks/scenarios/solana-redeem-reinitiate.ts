/** The user redeems the solver's Solana fill and initiates the same terms again in one transaction. */
import { beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "../../../src/localnet/user.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, type AttackNet } from "../support/attack-net.js";
import { redeemAndInitiateAgain } from "../support/solana-moves.js";
import { feeOf, SOL, solverSolana } from "../../e2e/swaps/solana-support.js";

export function solanaRedeemAndInitiateAgain(net: () => AttackNet): void {
  let t: AttackNet;
  beforeAll(() => {
    t = net();
  });
  describe("solana: the user redeems the solver's fill and initiates the same terms again in one transaction", () => {
    it("does not hide the secret: the solver redeems its source; each side ends with its fair share", async () => {
      const SOURCE = "ethereum_localnet:usdc";
      const user = t.user(0);
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

      // The solver must find the secret on the chain itself: the service tells it nothing of the redeem.
      t.proxy.lieAbout(order.order_id, (lied) => {
        for (const swap of [lied.source_swap, lied.destination_swap]) {
          swap.secret = "";
          swap.redeem_tx_hash = "";
        }
        if (lied.status === "Redeemed" || lied.status === "RedeemDetected") lied.status = "AwaitingRedeem";
      });
      const attack = await redeemAndInitiateAgain(user, filled.destination_swap, secret);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        60_000,
      );
      const redeem = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
      expect(redeem?.request.secret).toBe(secret.slice(2));
      // The service learned it too: the swap is complete where the user reads it.
      const done = await user.waitForOrder(order.order_id, (o) => o.destination_swap.redeem_tx_hash !== "");
      expect(done.destination_swap.redeem_tx_hash).toBe(attack);

      // The re-initiation is the user's own: they redeem it back with the same secret.
      const reclaim = await user.redeemSolanaDestination(done, secret);
      t.proxy.stopLying(order.order_id);
      const fill = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      const fillTx = t.net.solver!.journal.attemptsOfAction(fill.id).find((a) => a.state === "confirmed")!;
      // Solver: paid the SOL and its fill's fee (the rent came back), was paid the whole source.
      expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + feeOf(t, fillTx.txHash));
      expect((await solverUsdc()) - solverUsdcBefore).toBe(300_000_000n);
      // User: the SOL less its two fees, for the USDC; nothing more.
      expect((await user.balance(SOL)) - userSol).toBe(amount - feeOf(t, attack) - feeOf(t, reclaim));
      expect(userUsdc - (await user.balance(SOURCE))).toBe(300_000_000n);
      expect(t.net.solver!.journal.lastDecision(order.order_id)?.reason).not.toBe("destination_occupied");
    });
  });
}
