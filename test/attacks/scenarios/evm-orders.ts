/**
 * Attacks on the solver between the two anvil chains, each checked on the solver's balances: many
 * orders at once against a limited inventory, an order asking for more than the quote with any slippage
 * accepted, two orders backed by one source, and a service that
 * rewrites an order after the solver filled it (other source, wrong secret, a final status, gone from
 * its listings).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedAmount } from "../../support/quote-drift.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { USER_SLIPPAGE_BPS, waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  moveSolverTokens,
  redeemAndSettle,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const FROM = "ethereum_localnet:usdc";
const TO = "arbitrum_localnet:usdc";
const FLOOR = 1_000_000_000n;

let t: AttackNet;

async function order(user: LocalUser, amount: bigint, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(FROM, TO, amount);
  return user.createOrder(quote, {
    slippageBps: USER_SLIPPAGE_BPS,
    ...(secretHash === undefined ? {} : { secretHash }),
  });
}

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    // No inventory curve into TO: these attacks are on capacity and terms. With the curve, orders quoted at
    // full inventory are refused for its wider fee once the inventory is moved away (inventory-curve tests).
    t = await startAttackNet({}, (config) => ({
      ...config,
      limits: { ...config.limits, inventoryFloor: { [TO]: FLOOR } },
      inventoryCurves: Object.fromEntries(Object.entries(config.inventoryCurves).filter(([id]) => id !== TO)),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** Many orders against a limited inventory; a user asking more than the quote. */
export function evmInventoryBurst(): void {
  useNet();
  describe("attack: many orders in one round against a limited inventory", () => {
    it("fills only what the inventory above its floor covers, the rest wait, and none is lost", async () => {
      const users = [t.user(0), t.user(1), t.user(2)];
      const orders: Order[] = [];
      for (let i = 0; i < 5; i++) orders.push(await order(users[i % 3]!, 100_000_000n));
      // Quotes carry the network fees of the moment, so the amounts may differ a little between orders.
      const amounts = orders.map((o) => BigInt(o.destination_swap.amount));
      const largest = amounts.reduce((a, b) => (a > b ? a : b));
      const smallest = amounts.reduce((a, b) => (a < b ? a : b));
      expect(2n * (largest - smallest)).toBeLessThan(smallest / 4n);
      // Leave the floor plus room for any two fills and never a third.
      const held = await solverHolds(t, TO);
      const away = held - FLOOR - 2n * largest - smallest / 2n;
      await moveSolverTokens(t, TO, "away", away);

      // Users in parallel, each one's transactions in turn (one account, one nonce at a time).
      await Promise.all(
        users.map(async (user, u) => {
          for (const [i, o] of orders.entries()) if (i % 3 === u) await user.initiateOnChain(o);
        }),
      );
      await waitFor(
        () => orders.filter((o) => journaled(t, o).includes("fill:confirmed")).length === 2,
        "two fills to be mined",
      );
      await solverRounds(t, 4);
      const filled = orders.filter((o) => journaled(t, o).length > 0);
      const waiting = orders.filter((o) => journaled(t, o).length === 0);
      expect(filled).toHaveLength(2);
      for (const o of waiting) expect(lastReason(t, o)).toBe("insufficient_inventory");
      expect(await solverHolds(t, TO)).toBeGreaterThanOrEqual(FLOOR);

      // Inventory comes back: the orders that waited are filled, none is dropped.
      await moveSolverTokens(t, TO, "back", away);
      for (const [i, o] of orders.entries()) {
        await users[i % 3]!.waitForOrder(o.order_id, (x) => x.source_swap.redeem_tx_hash !== "", {
          timeoutMs: 120_000,
        });
      }
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("redeem:confirmed")),
        "every source redeem to be mined",
      );
      expect(await solverHolds(t, TO)).toBe(held - amounts.reduce((a, b) => a + b, 0n));
    });
  });
  describe("attack: a user asks for more than the quote and accepts any slippage", () => {
    it("gets the live quote's amount, no more, and the solver's inventory moves by exactly that", async () => {
      const user = t.user(2);
      const quote = await user.bestQuote(FROM, TO, 40_000_000n);
      const quoted = BigInt(quote.destination.amount);
      const greedy = { ...quote, destination: { ...quote.destination, amount: (quoted * 2n).toString() } };
      const made = await user.createOrder(greedy, { slippageBps: 10_000 });
      // The live quote's amount, far below what the user asked.
      const got = orderedAmount(made, quoted);

      const [userBefore, solverToBefore, solverFromBefore] = await Promise.all([
        user.balance(TO),
        solverHolds(t, TO),
        solverHolds(t, FROM),
      ]);
      await user.initiateOnChain(made);
      await user.waitForOrder(made.order_id, (o) => o.source_swap.redeem_tx_hash !== "", {
        timeoutMs: 120_000,
      });
      await waitFor(() => journaled(t, made).includes("redeem:confirmed"), "the source redeem to be mined");
      expect((await user.balance(TO)) - userBefore).toBe(got);
      expect(solverToBefore - (await solverHolds(t, TO))).toBe(got);
      expect((await solverHolds(t, FROM)) - solverFromBefore).toBe(40_000_000n);
    });
  });
}

/** Two orders on one source; a service that rewrites an order after the fill. */
export function evmServiceLies(): void {
  useNet();
  describe("attack: two orders backed by one source", () => {
    it("gets one fill: the second order names a source that already backs the first", async () => {
      const [alice, bob] = [t.user(0), t.user(1)];
      const { secret, secretHash } = newUserSecret();
      const first = await order(alice, 100_000_000n, secretHash);
      // Same secret and amount from bob (his own source, so the service takes it); then the service says
      // bob's order is backed by alice's source: a whole, consistent lie, since bob's destination was
      // quoted for the same amount.
      const second = await order(bob, 100_000_000n, secretHash);
      t.proxy.lieAbout(second.order_id, (lied) => {
        lied.source_swap = { ...first.source_swap };
      });
      const solverFrom = await solverHolds(t, FROM);
      const solverTo = await solverHolds(t, TO);
      await alice.initiateOnChain(first);
      await waitFor(
        () => [first, second].some((o) => journaled(t, o).includes("fill:confirmed")),
        "one fill to be mined",
      );
      await solverRounds(t, 4);
      const fills = [first, second].filter((o) => journaled(t, o).some((a) => a.startsWith("fill:")));
      expect(fills).toHaveLength(1);
      const other = fills[0] === first ? second : first;
      expect(lastReason(t, other)).toBe("source_backs_another_order");

      const filled = fills[0]!;
      const [filledUser] = filled === first ? [alice] : [bob];
      await redeemAndSettle(
        t,
        filledUser!,
        await filledUser!.waitForOrder(filled.order_id, () => true),
        secret,
      );
      expect(await solverHolds(t, TO)).toBe(solverTo - BigInt(first.destination_swap.amount));
      expect(await solverHolds(t, FROM)).toBe(solverFrom + BigInt(first.source_swap.amount));
      t.proxy.stopLying(second.order_id);
    });
  });
  describe("attack: a service that rewrites an order after the fill", () => {
    it("cannot move the solver's redeem: it redeems the source it filled against", async () => {
      const user = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const o = await order(user, 100_000_000n, secretHash);
      const solverFrom = await solverHolds(t, FROM);
      await user.initiateOnChain(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined");

      // Another source HTLC (the attacker's, never funded), a secret that is not the preimage, a final
      // status, and the order gone from every listing.
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.status = "Refunded";
        lied.source_swap.swap_id = "ab".repeat(32);
        lied.source_swap.amount = "1";
        lied.destination_swap.secret = "cd".repeat(32);
        return "hide";
      });
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual(["fill:confirmed"]);

      await redeemAndSettle(t, user, o, secret);
      const redeem = t.net.solver!.journal.orderActions(o.order_id).find((a) => a.kind === "redeem")!;
      expect(redeem.request.params.swapId).toBe(o.source_swap.swap_id);
      expect(redeem.request.secret).toBe(secret.slice(2));
      expect(await solverHolds(t, FROM)).toBe(solverFrom + BigInt(o.source_swap.amount));
      expect(
        t.log.find(
          (l) =>
            l.orderId === o.order_id &&
            l.msg === "the service changed an order the solver acted on; keeping the terms it acted on",
        ),
      ).toBeDefined();
      t.proxy.stopLying(o.order_id);
    });
  });
}
