/**
 * Foreign value at a Starknet destination, each attack made as a user and checked on both sides'
 * balances. The order id is computed from the terms, so the user can create the destination's id first
 * with `initiate_on_behalf(initiator = the solver, ...)` paid from their own account: the HTLC then holds
 * the id for good and the solver's own fill could only be refused as a duplicate. That order is not the
 * solver's fill: it signs nothing over it, redeems no source it never judged, and the user's order ends
 * with its redeemer (the user, taking their tokens back) or, once expired, with its initiator (the
 * solver). Tokens sent straight to the HTLC belong to no order and change nothing of a fill.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  evmClients,
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { refundOn } from "../support/evm-moves.js";
import {
  feeOfReceipt,
  initiateOnBehalf,
  initiatedAt,
  mineUntilPast,
  refundAt,
  starknetAssetOf,
  succeeded,
  transferToHtlc,
} from "../support/starknet-moves-a.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  starknetHtlcEvents,
  STARKNET_WBTC,
  strkBalance,
} from "../../e2e/swaps/starknet-support.js";

const SOURCE_CHAIN = "ethereum_localnet";
const FROM = `${SOURCE_CHAIN}:wbtc`;
const AMOUNT = 1_000_000n;
/** EVM source blocks: long enough for a Starknet fill of DESTINATION_TIMELOCK, refundable after one mining call. */
const SOURCE_TIMELOCK = 1_300;
/** Starknet destination blocks: short, so the user's order expires within the test. */
const DESTINATION_TIMELOCK = 100;

let t: AttackNet;

interface Balances {
  userFrom: bigint;
  userWbtc: bigint;
  userStrk: bigint;
  solverFrom: bigint;
  solverWbtc: bigint;
  solverStrk: bigint;
}

async function balances(user: LocalUser): Promise<Balances> {
  return {
    userFrom: await user.balance(FROM),
    userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
    userStrk: strkBalance(t, user.starknet.address),
    solverFrom: await solverHolds(t, FROM),
    solverWbtc: solverStarknet(t, STARKNET_WBTC),
    solverStrk: solverStrk(t),
  };
}

async function order(user: LocalUser, secretHash: string): Promise<Order> {
  return user.createOrder(await user.bestQuote(FROM, STARKNET_WBTC, AMOUNT), { secretHash });
}

/**
 * The user's order in the solver's name holds the id: the planner waits, sends nothing, and the
 * executor, asked directly, refuses to build a fill over it.
 */
async function expectHeld(o: Order): Promise<void> {
  await waitFor(() => lastReason(t, o) === "destination_occupied", "the solver to see the id held");
  await solverRounds(t, 3);
  expect(journaled(t, o)).toEqual([]);
  expect(lastReason(t, o)).toBe("destination_occupied");
}

/** The user takes the EVM source back once it expired. */
async function refundEvmSource(user: LocalUser, o: Order): Promise<void> {
  await mineBlocks(evmClients(t, SOURCE_CHAIN).chain.rpcUrl, SOURCE_TIMELOCK + 1);
  const htlc = t.net.descriptor.chains
    .find((c) => c.name === SOURCE_CHAIN)!
    .assets.find((a) => a.id === FROM)!.htlcAddress;
  await refundOn(t, user, SOURCE_CHAIN, htlc as `0x${string}`, `0x${o.source_swap.swap_id}`);
}

export function starknetForeignValue(): void {
  beforeAll(async () => {
    t = await startAttackNet({
      sourceTimelock: SOURCE_TIMELOCK,
      starknetDestinationTimelock: DESTINATION_TIMELOCK,
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });

  describe("attack: the user creates the destination's order id first, in the solver's name, and redeems it", () => {
    it("is not the solver's fill: nothing sent, no source redeemed; the user takes both sides back", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);

      const own = succeeded(
        await initiateOnBehalf(t, user, o.destination_swap, t.net.descriptor.solver.starknetAddress),
      );
      await user.initiateOnChain(o);
      await expectHeld(o);

      // The user redeems their own order: the secret is public, and still no fill of the solver's is out.
      const redeem = await user.redeemStarknetDestination(o, secret);
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);
      expect((await starknetHtlcEvents(t, o.destination_swap)).map((e) => [e.name, e.txHash])).toEqual([
        ["Initiated", own.transaction_hash],
        ["Redeemed", redeem],
      ]);

      await refundEvmSource(user, o);
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      const after = await balances(user);
      // The destination amount went out of the user's account and back; only the user's fees are gone.
      expect(after).toEqual({
        ...before,
        userStrk: before.userStrk - feeOfReceipt(own) - (await starknetFee(t, redeem)),
      });
      expect(amount).toBeGreaterThan(0n);
    }, 120_000);
  });

  describe("attack: the user creates the destination's order id first, in the solver's name, and leaves it", () => {
    it("the solver sends nothing; the expired order refunds to its initiator, the solver", async () => {
      const user = t.user(1);
      const { secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user);

      const own = succeeded(
        await initiateOnBehalf(t, user, o.destination_swap, t.net.descriptor.solver.starknetAddress),
      );
      await user.initiateOnChain(o);
      await expectHeld(o);

      const { htlc } = starknetAssetOf(t, o.destination_swap);
      const at = await initiatedAt(t, htlc, o.destination_swap);
      await mineUntilPast(t, at + BigInt(DESTINATION_TIMELOCK));
      // Whoever sends the refund, it pays the order's initiator. The solver may send it itself, as the
      // initiator of an expired order: then it pays that refund's fee from what it gained.
      const refund = await refundAt(user, htlc, o.destination_swap);
      await solverRounds(t, 3);
      const fills = journaled(t, o).filter((a) => a.startsWith("fill"));
      expect(fills).toEqual([]);

      await refundEvmSource(user, o);
      await solverRounds(t, 2);
      const after = await balances(user);
      const solverRefundFee = journaled(t, o).includes("refund:confirmed")
        ? await starknetFeeOfAction(t, o.order_id, "refund")
        : 0n;
      expect(after).toEqual({
        ...before,
        userWbtc: before.userWbtc - amount,
        userStrk: before.userStrk - feeOfReceipt(own) - feeOfReceipt(refund),
        solverWbtc: before.solverWbtc + amount,
        solverStrk: before.solverStrk - solverRefundFee,
      });
    }, 120_000);
  });

  describe("attack: tokens sent straight to the destination HTLC", () => {
    it("change nothing: the solver fills and settles as usual; the tokens stay at the contract", async () => {
      const user = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const gift = 50_000n;
      const transfer = succeeded(await transferToHtlc(t, user, o.destination_swap, gift));
      const { htlc } = starknetAssetOf(t, o.destination_swap);
      const atHtlc = starknetBalance(t, STARKNET_WBTC, htlc);
      const before = await balances(user);

      await user.initiateOnChain(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill", 60_000);
      const redeem = await user.redeemStarknetDestination(o, secret);
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);

      const after = await balances(user);
      expect(after).toEqual({
        userFrom: before.userFrom - AMOUNT,
        userWbtc: before.userWbtc + amount,
        userStrk: before.userStrk - (await starknetFee(t, redeem)),
        solverFrom: before.solverFrom + AMOUNT,
        solverWbtc: before.solverWbtc - amount,
        solverStrk: before.solverStrk - (await starknetFeeOfAction(t, o.order_id, "fill")),
      });
      // The fill went in and out again; the transfer is still at the contract, no order's to take.
      expect(starknetBalance(t, STARKNET_WBTC, htlc)).toBe(atHtlc);
      expect(feeOfReceipt(transfer)).toBeGreaterThan(0n);
    }, 120_000);
  });
}
