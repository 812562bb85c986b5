/**
 * The user redeems the solver's Solana fill and initiates the same terms again in one transaction; on
 * the legacy programs, tries to.
 */
import { describe, expect, it } from "vitest";
import { feeOf, SOL } from "../../e2e/swaps/solana-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, type AttackNet } from "../support/attack-net.js";
import {
  expectSolverPaidAndWasPaid,
  filledSolanaOrder,
  serviceSaysNothingOfTheRedeem,
} from "../support/solana-fill.js";
import { redeemAndInitiateAgain } from "../support/solana-moves.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

export function solanaRedeemAndInitiateAgain(
  net: () => AttackNet,
  version: SolanaProgramVersion = "current",
): void {
  if (version === "legacy") {
    legacyRedeemAndInitiateAgain(net);
    return;
  }
  describe("solana: the user redeems the solver's fill and initiates the same terms again in one transaction", () => {
    it("does not hide the secret: the solver redeems its source; each side ends with its fair share", async () => {
      const t = net();
      const o = await filledSolanaOrder(t, 0);
      const { user, order, secret } = o;
      serviceSaysNothingOfTheRedeem(t, order);
      const attack = await redeemAndInitiateAgain(user, o.filled.destination_swap, secret);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        60_000,
      );
      const redeem = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
      expect(redeem?.request.secret).toBe(secret.slice(2));
      // The service learned it too: the swap is complete where the user reads it.
      const done = await user.waitForOrder(order.order_id, (x) => x.destination_swap.redeem_tx_hash !== "");
      expect(done.destination_swap.redeem_tx_hash).toBe(attack);

      // The re-initiation is the user's own: they redeem it back with the same secret.
      const reclaim = await user.redeemSolanaDestination(done, secret);
      t.proxy.stopLying(order.order_id);
      await expectSolverPaidAndWasPaid(t, o);
      // The user: the SOL less its two fees, for the USDC; nothing more.
      expect((await user.balance(SOL)) - o.before.userSol).toBe(
        o.amount - feeOf(t, attack) - feeOf(t, reclaim),
      );
      expect(t.net.solver!.journal.lastDecision(order.order_id)?.reason).not.toBe("destination_occupied");
    });
  });
}

/**
 * Legacy: the fill's address is derived from the solver's key, and only the solver can initiate there.
 * The user's redeem-and-initiate is refused whole; their plain redeem then tells the solver the secret.
 */
function legacyRedeemAndInitiateAgain(net: () => AttackNet): void {
  describe("solana (legacy): the user redeems the solver's fill and initiates the same terms again in one transaction", () => {
    it("is refused whole by the program (only the solver initiates at its address); the swap completes fairly", async () => {
      const t = net();
      const o = await filledSolanaOrder(t, 0);
      const { user, order, secret } = o;
      serviceSaysNothingOfTheRedeem(t, order);
      await expect(redeemAndInitiateAgain(user, o.filled.destination_swap, secret)).rejects.toThrow(
        /ConstraintSeeds|seeds constraint|custom program error: 0x7d6/i,
      );
      // Refused in preflight, it never landed: the fill still lives, and the solver has nothing to redeem.
      expect(journaled(t, order)).toEqual(["fill:confirmed"]);

      const redeemTx = await user.redeemSolanaDestination(o.filled, secret);
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        60_000,
      );
      const redeem = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
      expect(redeem?.request.secret).toBe(secret.slice(2));
      t.proxy.stopLying(order.order_id);
      await expectSolverPaidAndWasPaid(t, o);
      expect((await user.balance(SOL)) - o.before.userSol).toBe(o.amount - feeOf(t, redeemTx));
    });
  });
}
