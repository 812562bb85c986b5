/**
 * The exposure limit against orders to two destination chains at once, on the two anvil chains. Fills
 * of different chains are admitted by passes that run side by side (one per destination chain), so users
 * open orders in both directions at once and hope that each chain's judgement counts only its own fills
 * and admits one, putting twice the allowed value in flight. Each step is checked on the solver's and the
 * users' balances. (The exact interleaving of two passes is pinned in test/unit/solver/fill-gate.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  redeemAndSettle,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const ETH_USDC = "ethereum_localnet:usdc";
const ARB_USDC = "arbitrum_localnet:usdc";
const AMOUNT = 100_000_000n;
/** $150: room for one fill of about $100 in flight, never two. */
const LIMIT_CENTS = 15_000n;

let t: AttackNet;

interface Leg {
  user: LocalUser;
  order: Order;
  secret: `0x${string}`;
  from: string;
  to: string;
}

async function openLeg(user: LocalUser, from: string, to: string): Promise<Leg> {
  const { secret, secretHash } = newUserSecret();
  const quote = await user.bestQuote(from, to, AMOUNT);
  const order = await user.createOrder(quote, { secretHash });
  return { user, order, secret, from, to };
}

const filled = (leg: Leg): boolean => journaled(t, leg.order).some((a) => a.startsWith("fill:"));
const destinationAmount = (leg: Leg): bigint => BigInt(leg.order.destination_swap.amount);

async function holdings(legs: Leg[]) {
  const [solverEth, solverArb, ...users] = await Promise.all([
    solverHolds(t, ETH_USDC),
    solverHolds(t, ARB_USDC),
    ...legs.map((leg) => leg.user.balance(leg.to)),
  ]);
  return { solverEth: solverEth!, solverArb: solverArb!, users };
}

function settle(leg: Leg): Promise<void> {
  return redeemAndSettle(t, leg.user, leg.order, leg.secret);
}

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({}, (config) => ({
      ...config,
      limits: { ...config.limits, maxInFlightUsdCents: LIMIT_CENTS },
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** Orders to both anvil chains at once under an exposure limit that fits one fill. */
export function evmExposureBurst(): void {
  useNet();
  describe("attack: orders to both EVM chains at once under an exposure limit that fits one fill", () => {
    it("fills one, holds the other with exposure_limit until the first settles, and loses nothing", async () => {
      // A third order takes the room first, so both legs are ready and waiting when it settles.
      const occupier = await openLeg(t.user(2), ETH_USDC, ARB_USDC);
      const toArb = await openLeg(t.user(0), ETH_USDC, ARB_USDC);
      const toEth = await openLeg(t.user(1), ARB_USDC, ETH_USDC);
      const legs = [toArb, toEth];
      expect(destinationAmount(toArb) + destinationAmount(toEth)).toBeGreaterThan(LIMIT_CENTS * 10_000n);
      await occupier.user.initiateOnChain(occupier.order);
      await waitFor(() => journaled(t, occupier.order).includes("fill:confirmed"), "the first order's fill");

      const before = await holdings(legs);
      await Promise.all(legs.map((leg) => leg.user.initiateOnChain(leg.order)));
      await waitFor(
        () => legs.every((leg) => lastReason(t, leg.order) === "exposure_limit"),
        "both orders to wait for the exposure limit",
      );
      await settle(occupier);
      await waitFor(() => legs.some((leg) => journaled(t, leg.order).includes("fill:confirmed")), "a fill");
      await solverRounds(t, 4);

      const first = legs.filter(filled);
      expect(first).toHaveLength(1);
      const [done] = first as [Leg];
      const held = done === toArb ? toEth : toArb;
      expect(lastReason(t, held.order)).toBe("exposure_limit");
      const midway = await holdings(legs);
      // Only the admitted fill left the solver (the first order's source came in on ethereum meanwhile);
      // the other user's destination got nothing yet.
      const occupierIn = AMOUNT;
      expect(midway.solverEth - before.solverEth).toBe(
        occupierIn - (done === toEth ? destinationAmount(toEth) : 0n),
      );
      expect(before.solverArb - midway.solverArb).toBe(done === toArb ? destinationAmount(toArb) : 0n);
      expect(midway.users).toEqual(before.users);

      // The filled leg settles; its value leaves flight and the held order is filled.
      await settle(done);
      await waitFor(
        () => journaled(t, held.order).includes("fill:confirmed"),
        "the held order's fill",
        60_000,
      );
      await settle(held);

      const after = await holdings(legs);
      expect(after.users[0]! - before.users[0]!).toBe(destinationAmount(toArb));
      expect(after.users[1]! - before.users[1]!).toBe(destinationAmount(toEth));
      expect(after.solverEth - before.solverEth).toBe(occupierIn + AMOUNT - destinationAmount(toEth));
      expect(after.solverArb - before.solverArb).toBe(AMOUNT - destinationAmount(toArb));
    });
  });
}
