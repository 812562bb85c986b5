/**
 * Many orders to SUI at once against an inventory floor that leaves room for only some of them: the
 * solver fills what the SUI above the floor covers (SUI also pays the fills' gas, out of the same coins),
 * the rest wait (`insufficient_inventory`), and once the operator adds SUI every one is filled; none is
 * lost. Both sides' balances are checked to the MIST, the solver's gas and the users' from the effects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import { LOCALNET_SUI_FUNDS, SUI_DECIMALS } from "@htlc-solver/localnet/families/sui/sui-setup.js";
import { LOCALNET_PRICES } from "@htlc-solver/localnet/localnet-config.js";
import type { Order } from "../../../src/orderbook/types.js";
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
import { solverSui, SUI, suiBalance, suiGas, suiGasOfAction } from "../../e2e/swaps/sui-support.js";

const FROM = "ethereum_localnet:wbtc";
/** 0.01 WBTC. */
const AMOUNT = 1_000_000n;
const ORDERS = 5;
const COVERED = 2;
const SOLVER_SUI = LOCALNET_SUI_FUNDS.solver * 10n ** BigInt(SUI_DECIMALS);
/** What one order's WBTC is worth in MIST at the localnet's prices, before any fee: no fill is more. */
const MOST_PER_FILL =
  (AMOUNT * BigInt(LOCALNET_PRICES.wbtc!) * 10n ** BigInt(SUI_DECIMALS)) /
  (BigInt(LOCALNET_PRICES.sui!) * 10n ** 8n);
/** The floor leaves room for COVERED fills and half of one more. */
const FLOOR = SOLVER_SUI - BigInt(COVERED) * MOST_PER_FILL - MOST_PER_FILL / 2n;

let t: AttackNet;

interface Placed {
  user: LocalUser;
  order: Order;
  secret: string;
}

export function suiInventoryBurst(): void {
  beforeAll(async () => {
    // No inventory curve into SUI: with it, quotes near the floor carry a wider fee.
    t = await startAttackNet({}, (config) => ({
      ...config,
      limits: { ...config.limits, inventoryFloor: { ...config.limits.inventoryFloor, [SUI]: FLOOR } },
      inventoryCurves: Object.fromEntries(
        Object.entries(config.inventoryCurves).filter(([id]) => id !== SUI),
      ),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });

  describe("attack: many orders to SUI in one round against a limited inventory", () => {
    it("fills only what the SUI above its floor covers, the rest wait, and none is lost", async () => {
      const users = [t.user(0), t.user(1), t.user(2)];
      expect(solverSui(t)).toBe(SOLVER_SUI);
      const placed: Placed[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const user = users[i % users.length]!;
        const { secret, secretHash } = newUserSecret();
        const order = await user.createOrder(await user.bestQuote(FROM, SUI, AMOUNT), {
          secretHash,
          slippageBps: USER_SLIPPAGE_BPS,
        });
        placed.push({ user, order, secret });
      }
      const orders = placed.map((p) => p.order);
      const amountOf = (o: Order): bigint => BigInt(o.destination_swap.amount);
      // Each fill is at most its worth: the room above the floor holds COVERED of them, never one more.
      for (const o of orders) {
        expect(amountOf(o)).toBeLessThanOrEqual(MOST_PER_FILL);
        expect(amountOf(o) * BigInt(COVERED + 1)).toBeGreaterThan(SOLVER_SUI - FLOOR);
      }
      const before = {
        solverSui: solverSui(t),
        solverFrom: await solverHolds(t, FROM),
        users: await Promise.all(
          users.map(async (u) => ({ sui: suiBalance(t, SUI, u.sui.address), from: await u.balance(FROM) })),
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
      expect(solverSui(t)).toBeGreaterThanOrEqual(FLOOR);

      // The operator adds SUI: the orders that waited are filled, none is dropped.
      const added = BigInt(ORDERS) * MOST_PER_FILL;
      t.net.sui.local.mintSui(t.net.descriptor.solver.suiAddress, added);
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("fill:confirmed")),
        "every fill to land",
        120_000,
      );
      const redeemGas = new Map<LocalUser, bigint>();
      for (const p of placed) {
        const digest = await p.user.redeemSuiDestination(p.order, p.secret);
        redeemGas.set(p.user, (redeemGas.get(p.user) ?? 0n) + (await suiGas(t, digest)));
      }
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("redeem:confirmed")),
        "every source redeem to land",
        120_000,
      );

      let fillGas = 0n;
      for (const o of orders) fillGas += await suiGasOfAction(t, o.order_id, "fill");
      const sourceTotal = orders.reduce((sum, o) => sum + BigInt(o.source_swap.amount), 0n);
      const destinationTotal = orders.reduce((sum, o) => sum + amountOf(o), 0n);
      // The solver paid each fill's amount and gas and was paid every source; the added SUI is all there.
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(sourceTotal);
      expect(before.solverSui + added - solverSui(t)).toBe(destinationTotal + fillGas);
      // Each user paid their sources and got each fill once, paying only their redeems' gas.
      for (const [u, user] of users.entries()) {
        const mine = placed.filter((p) => p.user === user);
        const b = before.users[u]!;
        const got = mine.reduce((sum, p) => sum + amountOf(p.order), 0n);
        const paid = mine.reduce((sum, p) => sum + BigInt(p.order.source_swap.amount), 0n);
        expect(suiBalance(t, SUI, user.sui.address) - b.sui).toBe(got - (redeemGas.get(user) ?? 0n));
        expect(b.from - (await user.balance(FROM))).toBe(paid);
      }
    }, 300_000);
  });
}
