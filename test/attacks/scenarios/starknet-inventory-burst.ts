/**
 * Many orders to Starknet WBTC at once against an inventory floor that leaves room for only some of
 * them: the solver fills what the tokens above the floor cover, the rest wait (`insufficient_inventory`),
 * and once the operator adds inventory every one is filled; none is lost. Both sides' balances are checked
 * to the unit, the solver's STRK to its fills' fees from their receipts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import {
  LOCALNET_STARKNET_FUNDS,
  WBTC_DECIMALS,
} from "@htlc-solver/localnet/families/starknet/starknet-setup.js";
import type { Order } from "../../../src/orderbook/types.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  STARKNET_WBTC,
  strkBalance,
} from "../../e2e/swaps/starknet-support.js";
import { USER_SLIPPAGE_BPS, waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";

const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;
const ORDERS = 5;
const COVERED = 2;
/** The solver starts with all its WBTC; the floor leaves room for COVERED fills and half of one more. */
const SOLVER_WBTC = LOCALNET_STARKNET_FUNDS.solver.wbtc * 10n ** BigInt(WBTC_DECIMALS);
const FLOOR = SOLVER_WBTC - BigInt(COVERED) * AMOUNT - AMOUNT / 2n;

let t: AttackNet;

interface Placed {
  user: LocalUser;
  order: Order;
  secret: string;
}

export function starknetInventoryBurst(): void {
  beforeAll(async () => {
    // No inventory curve into Starknet WBTC: with it, quotes near the floor carry a wider fee.
    t = await startAttackNet({}, (config) => ({
      ...config,
      limits: {
        ...config.limits,
        inventoryFloor: { ...config.limits.inventoryFloor, [STARKNET_WBTC]: FLOOR },
      },
      inventoryCurves: Object.fromEntries(
        Object.entries(config.inventoryCurves).filter(([id]) => id !== STARKNET_WBTC),
      ),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });

  describe("attack: many orders to Starknet WBTC in one round against a limited inventory", () => {
    it("fills only what the WBTC above its floor covers, the rest wait, and none is lost", async () => {
      const users = [t.user(0), t.user(1), t.user(2)];
      expect(solverStarknet(t, STARKNET_WBTC)).toBe(SOLVER_WBTC);
      const placed: Placed[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const user = users[i % users.length]!;
        const { secret, secretHash } = newUserSecret();
        const order = await user.createOrder(await user.bestQuote(FROM, STARKNET_WBTC, AMOUNT), {
          secretHash,
          slippageBps: USER_SLIPPAGE_BPS,
        });
        placed.push({ user, order, secret });
      }
      const orders = placed.map((p) => p.order);
      const amountOf = (o: Order): bigint => BigInt(o.destination_swap.amount);
      // Each fill is at most the amount asked: the room above the floor holds COVERED of them, never one more.
      for (const o of orders) {
        expect(amountOf(o)).toBeLessThanOrEqual(AMOUNT);
        expect(amountOf(o) * BigInt(COVERED + 1)).toBeGreaterThan(SOLVER_WBTC - FLOOR);
      }
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        solverFrom: await solverHolds(t, FROM),
        users: await Promise.all(
          users.map(async (u) => ({
            wbtc: starknetBalance(t, STARKNET_WBTC, u.starknet.address),
            strk: strkBalance(t, u.starknet.address),
            from: await u.balance(FROM),
          })),
        ),
      };

      // Users in parallel, each one's locks in turn (one account, one nonce at a time).
      await Promise.all(
        users.map(async (user) => {
          for (const p of placed) if (p.user === user) await user.initiateOnChain(p.order);
        }),
      );
      await waitFor(
        () => orders.filter((o) => journaled(t, o).includes("fill:confirmed")).length >= COVERED,
        `${COVERED} fills to land`,
        90_000,
      );
      await solverRounds(t, 4);
      const filled = orders.filter((o) => journaled(t, o).length > 0);
      expect(filled).toHaveLength(COVERED);
      for (const o of orders.filter((x) => !filled.includes(x))) {
        expect(lastReason(t, o)).toBe("insufficient_inventory");
      }
      expect(solverStarknet(t, STARKNET_WBTC)).toBeGreaterThanOrEqual(FLOOR);

      // The operator adds inventory: the orders that waited are filled, none is dropped.
      const added = BigInt(ORDERS) * AMOUNT;
      t.net.starknet.local.mint(t.net.starknet.wbtc, t.net.descriptor.solver.starknetAddress, added);
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("fill:confirmed")),
        "every fill to land",
        120_000,
      );
      const redeemFees = new Map<LocalUser, bigint>();
      for (const p of placed) {
        const tx = await p.user.redeemStarknetDestination(p.order, p.secret);
        redeemFees.set(p.user, (redeemFees.get(p.user) ?? 0n) + (await starknetFee(t, tx)));
      }
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("redeem:confirmed")),
        "every source redeem to land",
        120_000,
      );

      let fillFees = 0n;
      for (const o of orders) fillFees += await starknetFeeOfAction(t, o.order_id, "fill");
      const sourceTotal = orders.reduce((sum, o) => sum + BigInt(o.source_swap.amount), 0n);
      const destinationTotal = orders.reduce((sum, o) => sum + amountOf(o), 0n);
      // The solver paid each fill's amount and fee and was paid every source; the added WBTC is all there.
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(sourceTotal);
      expect(before.solverWbtc + added - solverStarknet(t, STARKNET_WBTC)).toBe(destinationTotal);
      expect(before.solverStrk - solverStrk(t)).toBe(fillFees);
      // Each user paid their sources and got each fill once, paying only their redeems' fees.
      for (const [u, user] of users.entries()) {
        const mine = placed.filter((p) => p.user === user);
        const b = before.users[u]!;
        const got = mine.reduce((sum, p) => sum + amountOf(p.order), 0n);
        const paid = mine.reduce((sum, p) => sum + BigInt(p.order.source_swap.amount), 0n);
        expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address) - b.wbtc).toBe(got);
        expect(b.strk - strkBalance(t, user.starknet.address)).toBe(redeemFees.get(user) ?? 0n);
        expect(b.from - (await user.balance(FROM))).toBe(paid);
      }
    }, 300_000);
  });
}
