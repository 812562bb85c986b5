/**
 * Source value that is not there, on an EVM source: a lock the service counts as confirmed that the
 * solver's own node does not have deep enough, a lock the service reports that no block holds yet, and a
 * lock on another copy of the HTLC contract that the service points the order at. The solver fills none;
 * the user gets every lock back; neither side's balances move but by the user's own gas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { anvilCall, mineBlocks, waitFor } from "../../support/localnet.js";
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
import {
  approveToken,
  deployHtlcCopy,
  lockOn,
  orderIdOn,
  refundOn,
  setMining,
  userOn,
} from "../support/evm-moves.js";

const SOURCE_CHAIN = "ethereum_localnet";
const FROM = `${SOURCE_CHAIN}:usdc`;
const TO = "arbitrum_localnet:usdc";
const AMOUNT = 100_000_000n;
/** Blocks: a lock is refundable after this many, mined in one call. */
const SOURCE_TIMELOCK = 1_300;
/**
 * The operator's depth on the source chain, far above the service's one confirmation. By the time a lock
 * has it, its timelock no longer outlasts a fill (600 destination blocks and the 600 s margin), so every
 * order here is filled only if the solver counts a shallower lock.
 */
const MIN_CONFIRMATIONS = 120;

let t: AttackNet;

/** Every balance the attacks could move: the user's and the solver's tokens, and the solver's gas on both chains. */
async function balances(user: LocalUser): Promise<bigint[]> {
  return Promise.all([
    user.balance(FROM),
    user.balance(TO),
    solverHolds(t, FROM),
    solverHolds(t, TO),
    solverHolds(t, `${SOURCE_CHAIN}:eth`),
    solverHolds(t, "arbitrum_localnet:eth"),
  ]);
}

async function order(user: LocalUser): Promise<Order> {
  const quote = await user.bestQuote(FROM, TO, AMOUNT);
  return user.createOrder(quote, { secretHash: newUserSecret().secretHash });
}

function sourceRpc(): string {
  return evmClients(t, SOURCE_CHAIN).chain.rpcUrl;
}

/** Nothing of the solver's for this order: no action journaled, after rounds enough to have acted. */
async function nothingFilled(o: Order, reason: string): Promise<void> {
  await waitFor(() => lastReason(t, o) === reason, `the solver to wait with ${reason}`);
  await solverRounds(t, 4);
  expect(journaled(t, o)).toEqual([]);
  expect(lastReason(t, o)).toBe(reason);
}

/** The service says the source is locked and confirmed, by the transaction given. */
function serviceSaysInitiated(o: Order, txHash: Hex, swapId = o.source_swap.swap_id): void {
  t.proxy.lieAbout(o.order_id, (lied) => {
    lied.status = "Initiated";
    lied.source_swap.swap_id = swapId;
    lied.source_swap.initiate_tx_hash = txHash;
    lied.source_swap.current_confirmations = lied.source_swap.required_confirmations + 5;
  });
}

function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK }, (config) => ({
      ...config,
      chains: config.chains.map((c) =>
        c.name === SOURCE_CHAIN ? { ...c, minConfirmations: MIN_CONFIRMATIONS } : c,
      ),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

export function evmSourceValue(): void {
  useNet();
  describe("attack: a source the service counts as confirmed, below the operator's depth", () => {
    it("is not filled: the solver waits for its own depth, the user refunds, nothing moved", async () => {
      const user = t.user(0);
      const o = await order(user);
      const before = await balances(user);
      await user.initiateOnChain(o);
      const reported = await user.waitForOrder(
        o.order_id,
        (x) => x.source_swap.current_confirmations >= x.source_swap.required_confirmations,
      );
      expect(reported.source_swap.required_confirmations).toBeLessThan(MIN_CONFIRMATIONS);

      await nothingFilled(o, "source_unconfirmed");
      expect(t.net.solver!.journal.lastDecision(o.order_id)?.detail).toContain(
        `with ${MIN_CONFIRMATIONS} confirmations on our node`,
      );

      // The lock expires before it is ever deep enough to fill against; the user takes it back.
      await mineBlocks(sourceRpc(), SOURCE_TIMELOCK + 1);
      await waitFor(() => lastReason(t, o) !== "source_unconfirmed", "the solver to see the lock expire");
      const htlc = user.assetOf(FROM).asset.htlcAddress;
      await refundOn(t, user, SOURCE_CHAIN, htlc, `0x${o.source_swap.swap_id}`);
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      expect(await balances(user)).toEqual(before);
    });
  });

  describe("attack: a source the service reports locked and confirmed while no block holds it", () => {
    it("is not filled: the solver reads no lock on its node; the lock is dropped, nothing moved", async () => {
      const user = t.user(1);
      const o = await order(user);
      await approveToken(t, user, FROM);
      const before = await balances(user);

      await setMining(t, SOURCE_CHAIN, false);
      try {
        const held = await lockOn(t, user, o.source_swap);
        serviceSaysInitiated(o, held);
        await nothingFilled(o, "source_not_initiated");
        // The lock never lands: its sender replaces it, here the node forgets it.
        await anvilCall(sourceRpc(), "anvil_dropTransaction", [held]);
      } finally {
        await setMining(t, SOURCE_CHAIN, true);
      }
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_not_initiated");
      expect(await balances(user)).toEqual(before);
      t.proxy.stopLying(o.order_id);
    });
  });

  describe("attack: a source locked on another copy of the HTLC, the order pointed at it", () => {
    it("is not filled: the solver reads only the configured contract; the user refunds the copy", async () => {
      const user = t.user(2);
      const o = await order(user);
      const copy = await deployHtlcCopy(t, user, FROM);
      await approveToken(t, user, FROM, copy);
      const before = await balances(user);

      // The order's own terms, on the copy; the service names the copy's order id as the source.
      const locked = await lockOn(t, user, o.source_swap, copy);
      await userOn(t, user, SOURCE_CHAIN).pub.waitForTransactionReceipt({ hash: locked });
      const copyId = orderIdOn(t, copy, o.source_swap);
      serviceSaysInitiated(o, locked, copyId.slice(2));
      expect(await user.balance(FROM)).toBe(before[0]! - BigInt(o.source_swap.amount));
      await nothingFilled(o, "source_not_initiated");

      await mineBlocks(sourceRpc(), SOURCE_TIMELOCK + 1);
      await refundOn(t, user, SOURCE_CHAIN, copy, copyId);
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      expect(await balances(user)).toEqual(before);
      t.proxy.stopLying(o.order_id);
    });
  });
}
