/**
 * Foreign value at a Sui destination, each attack made as a user and checked on both sides' balances. The
 * order id is computed from the terms, so the user can create the destination's id first with
 * `initiate(initiator = the solver, redeemer = the user, …)` funded from a second account of their own
 * (the module forbids only funder = redeemer): the registry then holds the id for good and the solver's
 * own fill could only abort as a duplicate (code 7). That order is not the solver's fill: it sends nothing
 * over it, redeems no source it never judged, and the user's order ends with its redeemer (the user,
 * taking their SUI back) or, once expired, with its initiator (the solver). SUI sent straight to the
 * registry or to the solver belongs to no order and changes nothing of a fill.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { LocalSuiAccount } from "@htlc-solver/localnet/families/sui/chain/local-sui-account.js";
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
  initiateFrom,
  outcomeOf,
  refundFrom,
  secondSuiAccount,
  suiAccountOf,
  suiRegistry,
  termsOf,
  transferSui,
} from "../support/sui-moves-a.js";
import { SUI, suiBalance, suiGas, suiGasOfAction, solverSui } from "../../e2e/swaps/sui-support.js";

const SOURCE_CHAIN = "ethereum_localnet";
const FROM = `${SOURCE_CHAIN}:wbtc`;
const AMOUNT = 1_000_000n;
/** EVM source blocks: long enough for a Sui fill, refundable after one mining call. */
const SOURCE_TIMELOCK = 1_300;

let t: AttackNet;

async function balances(user: LocalUser, second: LocalSuiAccount) {
  return {
    userFrom: await user.balance(FROM),
    userSui: suiBalance(t, SUI, user.sui.address),
    secondSui: suiBalance(t, SUI, second.address),
    solverFrom: await solverHolds(t, FROM),
    solverSui: solverSui(t),
  };
}

async function order(user: LocalUser, secretHash: string): Promise<Order> {
  return user.createOrder(await user.bestQuote(FROM, SUI, AMOUNT), { secretHash });
}

/** The destination's terms initiated by the user's second account: the solver as initiator, the user as redeemer. */
async function occupy(second: LocalSuiAccount, o: Order) {
  const own = await initiateFrom(second, suiRegistry(t), termsOf(o.destination_swap));
  expect(outcomeOf(own)).toBe("success");
  return own;
}

/** The user's order in the solver's name holds the id: the planner waits and sends nothing. */
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

export function suiForeignValue(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK });
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });

  describe("attack: the user creates the destination's order id first, in the solver's name, and redeems it", () => {
    it("is not the solver's fill: nothing sent, no source redeemed; the user takes both sides back", async () => {
      const user = t.user(0);
      const second = secondSuiAccount(t);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const before = await balances(user, second);

      const own = await occupy(second, o);
      await user.initiateOnChain(o);
      await expectHeld(o);

      // The user redeems their own order: the secret is public, and still no fill of the solver's is out.
      const redeem = await user.redeemSuiDestination(o, secret);
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);

      await refundEvmSource(user, o);
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      // The destination amount went from the second account to the user; only the user's gas is gone.
      const amount = BigInt(o.destination_swap.amount);
      expect(await balances(user, second)).toEqual({
        ...before,
        userSui: before.userSui + amount - (await suiGas(t, redeem)),
        secondSui: before.secondSui - amount - (await suiGas(t, own.digest)),
      });
    }, 120_000);
  });

  describe("attack: the user creates the destination's order id first, in the solver's name, and leaves it", () => {
    it("the solver sends no fill; the expired order refunds to its initiator, the solver", async () => {
      const user = t.user(1);
      const second = secondSuiAccount(t);
      const { secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const before = await balances(user, second);

      const own = await occupy(second, o);
      await user.initiateOnChain(o);
      await expectHeld(o);

      t.net.sui.local.advanceClock(BigInt(o.destination_swap.timelock) + 1_000n);
      // Whoever sends the refund, it pays the order's initiator. The solver may send it itself, as the
      // initiator of an expired order: then it pays that refund's gas from what it gained.
      const refund = await refundFrom(suiAccountOf(user), suiRegistry(t), o.destination_swap.swap_id);
      await solverRounds(t, 3);
      expect(journaled(t, o).filter((a) => a.startsWith("fill"))).toEqual([]);

      await refundEvmSource(user, o);
      await solverRounds(t, 2);
      const userRefundGas = outcomeOf(refund) === "success" ? await suiGas(t, refund.digest) : 0n;
      const solverRefundGas = journaled(t, o).includes("refund:confirmed")
        ? await suiGasOfAction(t, o.order_id, "refund")
        : 0n;
      // One of the two refunds landed; the other aborted (14: fulfilled) and cost its sender gas only.
      const userLostRefund = outcomeOf(refund) === "success" ? 0n : await suiGas(t, refund.digest);
      expect(await balances(user, second)).toEqual({
        ...before,
        userSui: before.userSui - userRefundGas - userLostRefund,
        secondSui: before.secondSui - amount - (await suiGas(t, own.digest)),
        solverSui: before.solverSui + amount - solverRefundGas,
      });
    }, 120_000);
  });

  describe("attack: SUI sent straight to the registry and to the solver", () => {
    it("changes nothing: the solver fills and settles as usual; the gifts are no order's", async () => {
      const user = t.user(2);
      const second = secondSuiAccount(t);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const gift = 1_000_000_000n;
      const toRegistry = await transferSui(second, suiRegistry(t).registryId, gift);
      const toSolver = await transferSui(second, t.net.descriptor.solver.suiAddress, gift);
      expect([outcomeOf(toRegistry), outcomeOf(toSolver)]).toEqual(["success", "success"]);
      const before = await balances(user, second);

      await user.initiateOnChain(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill", 60_000);
      const redeem = await user.redeemSuiDestination(o, secret);
      await waitFor(
        () => journaled(t, o).join() === "fill:confirmed,redeem:confirmed",
        "the source redeem",
        60_000,
      );
      expect(await balances(user, second)).toEqual({
        userFrom: before.userFrom - AMOUNT,
        userSui: before.userSui + amount - (await suiGas(t, redeem)),
        secondSui: before.secondSui,
        solverFrom: before.solverFrom + AMOUNT,
        solverSui: before.solverSui - amount - (await suiGasOfAction(t, o.order_id, "fill")),
      });
      // The redeem paid the stored redeemer only: the registry's gift is still an object of its own.
      expect(suiBalance(t, SUI, suiRegistry(t).registryId)).toBe(gift);
    }, 120_000);
  });
}
