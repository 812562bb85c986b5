/**
 * Source value that is not there, on a Solana source, each attack made as a user (with a service that
 * says what the user wants it to say) and checked on both sides' balances: a source not yet as deep as
 * the solver requires, a source whose instant refund the solver sent and the user locked again with the
 * same terms, and a source locked at a copy of the HTLC program the solver does not read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
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
import { htlcProgramCopy, initiateTerms, refundExpired } from "../support/solana-moves.js";
import { feeOf, SOL, solanaFeeOfAction, solverSolana, swapAccount } from "../../e2e/swaps/solana-support.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

const TO = "arbitrum_localnet:usdc";
const AMOUNT = 1_000_000_000n; // 1 SOL
/** The solver's depth for a Solana source, above the service's one slot. */
const DEPTH = 6;

let t: AttackNet;

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(version: SolanaProgramVersion): void {
  beforeAll(async () => {
    t = await startAttackNet({ solanaProgramVersion: version }, (config) => ({
      ...config,
      chains: config.chains.map((c) => (c.family === "solana" ? { ...c, minConfirmations: DEPTH } : c)),
    }));
  });
  afterAll(async () => {
    t?.net.solana.local.holdSlots(false);
    await stopAttackNet(t);
  });
}

async function order(user: LocalUser, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(SOL, TO, AMOUNT);
  return user.createOrder(quote, secretHash === undefined ? {} : { secretHash });
}

/**
 * The user locks the source while the cluster's slots are held, and the slot after its lock is let
 * through so the lock is confirmed: it stays at depth 1 until the test moves the slots on.
 */
async function initiateHeld(user: LocalUser, o: Order): Promise<string> {
  const local = t.net.solana.local;
  local.holdSlots(true);
  const account = swapAccount(t, o.source_swap);
  const landedBefore = local.chain.signaturesFor(account).length;
  const initiated = user.initiateSolana(o);
  await waitFor(() => local.chain.signaturesFor(account).length > landedBefore, "the lock to land");
  local.advanceSlots(1n);
  return initiated;
}

/** Moves the cluster past the longest Solana source timelock of the net: a user's lock can be refunded. */
function pastSourceTimelock(o: Order): void {
  t.net.solana.local.advanceSlots(BigInt(o.source_swap.timelock) + 2n);
}

/** Source value that is not there, on a Solana source. */
export function solanaSourceValue(version: SolanaProgramVersion = "current"): void {
  useNet(version);
  describe("attack: a Solana source initiated but not yet at the solver's depth", () => {
    it("waits until the lock is as deep as the solver requires, then fills; each side its fair share", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const filled = BigInt(o.destination_swap.amount);
      const [userSol, userTo, solverSol, solverTo] = [
        await user.balance(SOL),
        await user.balance(TO),
        await solverSolana(t, SOL),
        await solverHolds(t, TO),
      ];
      const lock = await initiateHeld(user, o);
      // The service counts its one slot; the solver counts its own.
      await user.waitForOrder(
        o.order_id,
        (x) => x.source_swap.current_confirmations >= x.source_swap.required_confirmations,
      );
      const local = t.net.solana.local;
      const depth = () =>
        Number(local.chain.currentSlot("confirmed") - local.chain.transaction(lock)!.slot + 1n);
      await solverRounds(t, 3);
      expect(depth()).toBe(1);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");
      expect(t.net.solver!.journal.lastDecision(o.order_id)?.detail).toContain(`with ${DEPTH} confirmations`);

      // One slot short of the solver's depth: still nothing.
      local.advanceSlots(BigInt(DEPTH - 2));
      await solverRounds(t, 3);
      expect(depth()).toBe(DEPTH - 1);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");

      // At its depth the source backs a fill, and the swap completes.
      local.holdSlots(false);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined");
      await user.redeemDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem to land");

      expect((await solverSolana(t, SOL)) - solverSol).toBe(
        AMOUNT - solanaFeeOfAction(t, o.order_id, "redeem"),
      );
      expect(solverTo - (await solverHolds(t, TO))).toBe(filled);
      // The user's lock paid its rent back to the user at the redeem: only its fee is gone.
      expect(userSol - (await user.balance(SOL))).toBe(AMOUNT + feeOf(t, lock));
      expect((await user.balance(TO)) - userTo).toBe(filled);
    });
  });

  describe("attack: the user locks the same terms again after the solver's instant refund", () => {
    it("gets no fill: a source whose instant refund the solver sent backs nothing more", async () => {
      const user = t.user(1);
      const o = await order(user);
      const [userSol, solverSol, solverTo] = [
        await user.balance(SOL),
        await solverSolana(t, SOL),
        await solverHolds(t, TO),
      ];
      const lock = await initiateHeld(user, o);
      // A verdict on the order itself: the service says its deadline has passed.
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.additional_data.deadline = Math.floor(Date.now() / 1000) - 60;
      });
      t.net.solana.local.holdSlots(false);
      await waitFor(
        () => journaled(t, o).some((a) => a.startsWith("instant_refund:")),
        "the instant refund to be signed",
      );
      // The service tells the truth again: the order passes every other rule from here on.
      t.proxy.stopLying(o.order_id);
      await waitFor(() => journaled(t, o).includes("instant_refund:confirmed"), "the instant refund to land");
      const verdict = t.net.solver!.journal.decisions(o.order_id).find((d) => d.reason === "deadline_passed");
      expect(verdict?.outcome).toBe("refuse");
      await waitFor(() => lastReason(t, o) === "source_not_initiated", "the solver to see the source closed");
      // The amount and the rent came back to the user: only the lock's fee is gone.
      expect(userSol - (await user.balance(SOL))).toBe(feeOf(t, lock));

      const again = await user.initiateSolana(o);
      await waitFor(() => lastReason(t, o) === "instant_refund_given", "the solver to judge the new lock");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      expect(lastReason(t, o)).toBe("instant_refund_given");
      expect(solverTo - (await solverHolds(t, TO))).toBe(0n);
      // The solver paid the instant refund's fee and nothing else.
      expect(solverSol - (await solverSolana(t, SOL))).toBe(
        solanaFeeOfAction(t, o.order_id, "instant_refund"),
      );

      // The second lock is the user's to take back once it expires.
      pastSourceTimelock(o);
      const refund = await refundExpired(user, o.source_swap);
      expect(userSol - (await user.balance(SOL))).toBe(feeOf(t, lock) + feeOf(t, again) + feeOf(t, refund));
      expect(solverSol - (await solverSolana(t, SOL))).toBe(
        solanaFeeOfAction(t, o.order_id, "instant_refund"),
      );
    }, 120_000);
  });

  describe("attack: the source locked at a copy of the HTLC program, the service saying it is locked", () => {
    it("is not a source: the solver reads the configured program only, and fills nothing", async () => {
      const user = t.user(2);
      const o = await order(user);
      const [userSol, solverSol, solverTo] = [
        await user.balance(SOL),
        await solverSolana(t, SOL),
        await solverHolds(t, TO),
      ];
      const copy = htlcProgramCopy(t, user, SOL);
      const lock = await initiateTerms(user, o.source_swap, copy);
      const landed = t.net.solana.local.chain.transaction(lock)!;
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.status = "Initiated";
        lied.source_swap.initiate_tx_hash = lock;
        lied.source_swap.initiate_block_number = landed.slot.toString();
        lied.source_swap.filled_amount = lied.source_swap.amount;
        lied.source_swap.current_confirmations = lied.source_swap.required_confirmations + 100;
      });
      await waitFor(() => lastReason(t, o) === "source_not_initiated", "the solver to look for the source");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_not_initiated");
      expect(await solverHolds(t, TO)).toBe(solverTo);
      expect(await solverSolana(t, SOL)).toBe(solverSol);

      // The lock is real, at the copy: the user takes it back once it expires, less two fees.
      pastSourceTimelock(o);
      const refund = await refundExpired(user, o.source_swap, copy);
      t.proxy.stopLying(o.order_id);
      expect(userSol - (await user.balance(SOL))).toBe(feeOf(t, lock) + feeOf(t, refund));
      expect(await solverSolana(t, SOL)).toBe(solverSol);
    });
  });
}
