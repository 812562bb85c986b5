/**
 * Foreign value at a Solana destination, each attack made as a user and checked on both sides' balances:
 * the user initiates the destination's terms themselves before the solver's fill (the swap account is
 * derived from the terms only, so theirs sits where the solver's fill would), then redeems it or leaves
 * it to expire; and lamports sent to the destination's swap account before the fill. On the legacy
 * programs the swap account is derived from the initiator's key and the secret hash, and only its
 * initiator can sign an initiate there: the user's attempt at the solver's address is refused by the
 * program, and the solver fills as if it had not been made.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SystemProgram } from "@solana/web3.js";
import { SwapOccupiedError } from "../../../src/chains/solana/errors.js";
import type { ActionRow, AttemptRow } from "../../../src/journal/journal.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import { recordParams } from "../../../src/orderbook/record-params.js";
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
import {
  initiateAtInitiatorsAddress,
  initiateTerms,
  refundExpired,
  solanaSwapAccount,
} from "../support/solana-moves.js";
import { feeOf, htlcEventsOf, SOL, solanaFeeOfAction, solverSolana } from "../../e2e/swaps/solana-support.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

const FROM = "ethereum_localnet:usdc";
const AMOUNT = 300_000_000n;

let t: AttackNet;

function useNet(version: SolanaProgramVersion): void {
  beforeAll(async () => {
    t = await startAttackNet({ solanaProgramVersion: version });
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

async function order(user: LocalUser, secretHash: string): Promise<Order> {
  return user.createOrder(await user.bestQuote(FROM, SOL, AMOUNT), { secretHash });
}

interface Balances {
  userSol: bigint;
  userFrom: bigint;
  solverSol: bigint;
  solverFrom: bigint;
}

async function balances(user: LocalUser): Promise<Balances> {
  return {
    userSol: await user.balance(SOL),
    userFrom: await user.balance(FROM),
    solverSol: await solverSolana(t, SOL),
    solverFrom: await solverHolds(t, FROM),
  };
}

function actionOf(o: Order, kind: string): ActionRow {
  const action = t.net.solver!.journal.orderActions(o.order_id).find((a) => a.kind === kind);
  if (action === undefined) throw new Error(`no ${kind} of order ${o.order_id}`);
  return action;
}

function landedAttempt(o: Order, kind: string): AttemptRow {
  const journal = t.net.solver!.journal;
  const landed = journal.attemptsOfAction(actionOf(o, kind).id).find((a) => a.state === "confirmed");
  if (landed === undefined) throw new Error(`no landed ${kind} of order ${o.order_id}`);
  return landed;
}

/**
 * The user's initiation of the destination's terms holds the address: the planner waits, and the
 * executor, asked directly, refuses to send a fill over it.
 */
async function expectOccupied(o: Order): Promise<void> {
  await waitFor(() => lastReason(t, o) === "destination_occupied", "the solver to see the address held");
  await solverRounds(t, 3);
  expect(journaled(t, o)).toEqual([]);
  expect(lastReason(t, o)).toBe("destination_occupied");
  const executor = t.net.solver!.chains.get(t.net.descriptor.solana.name)!.executor;
  await expect(
    executor.build([{ kind: "fill", orderId: o.order_id, params: recordParams(o.destination_swap) }]),
  ).rejects.toBeInstanceOf(SwapOccupiedError);
}

/** Foreign value at a Solana destination. */
export function solanaForeignValue(version: SolanaProgramVersion = "current"): void {
  useNet(version);
  if (version === "legacy") legacyUserCannotInitiateTheFill();
  else userInitiatesTheFill();
  lamportsBeforeTheFill();
}

/** Legacy: the address of the solver's fill is the solver's own, whatever the user signs. */
function legacyUserCannotInitiateTheFill(): void {
  describe("attack: the user initiates the destination's terms at the solver's legacy address", () => {
    it("is refused by the program (the address is derived from the signer); the solver fills as usual", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);

      await expect(initiateAtInitiatorsAddress(user, o.destination_swap)).rejects.toThrow(
        /ConstraintSeeds|seeds constraint|custom program error: 0x7d6/i,
      );
      expect(
        (await user.solana.rpc.getAccount(solanaSwapAccount(user, o.destination_swap), "processed")).account,
      ).toBeNull();

      await user.initiateWithSignature(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to land", 60_000);
      const redeem = await user.redeemSolanaDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);
      expect(htlcEventsOf(t, o.destination_swap).map((e) => [e.name, e.signature])).toEqual([
        ["Initiated", landedAttempt(o, "fill").txHash],
        ["Redeemed", redeem],
      ]);

      // The refused attempt never landed: it cost the user nothing. The fill's rent came back to the solver.
      const after = await balances(user);
      expect(before.solverSol - after.solverSol).toBe(amount + solanaFeeOfAction(t, o.order_id, "fill"));
      expect(after.solverFrom - before.solverFrom).toBe(AMOUNT);
      expect(after.userSol - before.userSol).toBe(amount - feeOf(t, redeem));
      expect(before.userFrom - after.userFrom).toBe(AMOUNT);
    });
  });
}

function userInitiatesTheFill(): void {
  describe("attack: the user initiates the destination's terms themselves, then redeems them", () => {
    it("is not the solver's fill: it waits, fills once the address is free, and redeems against its own fill", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);

      const own = await initiateTerms(user, o.destination_swap);
      await user.initiateWithSignature(o);
      await expectOccupied(o);

      // The user takes their own initiation back with the secret: the secret is out, nothing of the
      // solver's was at the address.
      // The secret is known while the user's initiation still holds the address (the service says it):
      // with no fill of its own out, the solver does not redeem the source with it.
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.destination_swap.secret = secret.replace(/^0x/, "");
      });
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("destination_occupied");

      const reclaim = await user.redeemSolanaDestination(o, secret);
      t.proxy.stopLying(o.order_id);
      // The address is free: the solver fills, then redeems its source against its own fill.
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to land", 60_000);
      const redeem = await user.redeemSolanaDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);
      const fill = landedAttempt(o, "fill");
      expect(htlcEventsOf(t, o.destination_swap).map((e) => [e.name, e.signature])).toEqual([
        ["Initiated", own],
        ["Redeemed", reclaim],
        ["Initiated", fill.txHash],
        ["Redeemed", redeem],
      ]);

      const after = await balances(user);
      const fillFee = solanaFeeOfAction(t, o.order_id, "fill");
      expect(before.solverSol - after.solverSol).toBe(amount + fillFee);
      expect(after.solverFrom - before.solverFrom).toBe(AMOUNT);
      expect(after.userSol - before.userSol).toBe(
        amount - feeOf(t, own) - feeOf(t, reclaim) - feeOf(t, redeem),
      );
      expect(before.userFrom - after.userFrom).toBe(AMOUNT);
    });
  });

  describe("attack: the user initiates the destination's terms themselves and leaves them", () => {
    it("waits while they hold the address; their expired initiation pays the solver, who then fills", async () => {
      const user = t.user(1);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);

      const own = await initiateTerms(user, o.destination_swap);
      await user.initiateWithSignature(o);
      await expectOccupied(o);

      // Past the destination's timelock, the user's initiation is refunded to the refundee the terms
      // name: the solver.
      t.net.solana.local.advanceSlots(BigInt(o.destination_swap.timelock) + 2n);
      const refund = await refundExpired(user, o.destination_swap);
      // The amount went to the solver; the rent came back to the user, who sponsored it.
      expect(before.userSol - (await user.balance(SOL))).toBe(amount + feeOf(t, own) + feeOf(t, refund));
      // The address is free and the order still safe to fill: the solver fills, the swap completes.
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to land", 60_000);
      const redeem = await user.redeemSolanaDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);
      expect(htlcEventsOf(t, o.destination_swap).map((e) => [e.name, e.signature])).toEqual([
        ["Initiated", own],
        ["Refunded", refund],
        ["Initiated", landedAttempt(o, "fill").txHash],
        ["Redeemed", redeem],
      ]);

      const after = await balances(user);
      const fillFee = solanaFeeOfAction(t, o.order_id, "fill");
      expect(after.solverSol - before.solverSol).toBe(-fillFee);
      expect(after.solverFrom - before.solverFrom).toBe(AMOUNT);
      expect(after.userSol - before.userSol).toBe(-feeOf(t, own) - feeOf(t, refund) - feeOf(t, redeem));
      expect(before.userFrom - after.userFrom).toBe(AMOUNT);
    });
  });
}

function lamportsBeforeTheFill(): void {
  describe("attack: lamports sent to the destination's swap account before the fill", () => {
    it("does not stop the fill: the program tops the account up, and the lamports end with the solver", async () => {
      const user = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);
      const DONATION = 1_000_000n;
      const donation = await user.solana.send([
        SystemProgram.transfer({
          fromPubkey: user.solana.keypair.publicKey,
          toPubkey: solanaSwapAccount(user, o.destination_swap),
          lamports: DONATION,
        }),
      ]);
      await user.initiateWithSignature(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to land", 60_000);
      const redeem = await user.redeemSolanaDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);

      const after = await balances(user);
      const fillFee = solanaFeeOfAction(t, o.order_id, "fill");
      expect(before.solverSol - after.solverSol).toBe(amount + fillFee - DONATION);
      expect(after.solverFrom - before.solverFrom).toBe(AMOUNT);
      expect(after.userSol - before.userSol).toBe(amount - DONATION - feeOf(t, donation) - feeOf(t, redeem));
      expect(before.userFrom - after.userFrom).toBe(AMOUNT);
    });
  });
}
