/**
 * Many orders to a Solana destination at once, against an inventory floor that leaves room for only some
 * of them: SOL (the chain's coin, which also pays the fills' fees and rent) and the SPL token. Each burst
 * is checked on both sides' balances, to the lamport.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
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
import { moveSolverSolana } from "../support/solana-moves.js";
import {
  feeOf,
  SOL,
  solanaFeeOfAction,
  solverSolana,
  SPL_USDC,
  splVaultExists,
} from "../../e2e/swaps/solana-support.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

const FROM = "ethereum_localnet:usdc";
const FLOOR: Record<string, bigint> = { [SOL]: 5_000n * 10n ** 9n, [SPL_USDC]: 500_000n * 10n ** 6n };
/** The rent of the SPL program's vault of a mint, paid by the rent sponsor of the mint's first swap. */
const VAULT_RENT = 2_039_280n;

let t: AttackNet;

function useNet(version: SolanaProgramVersion): void {
  beforeAll(async () => {
    // No inventory curve into the Solana assets: with it, orders quoted at full inventory are refused for
    // its wider fee once the inventory is moved away (inventory-curve tests).
    t = await startAttackNet({ solanaProgramVersion: version }, (config) => ({
      ...config,
      limits: { ...config.limits, inventoryFloor: { ...config.limits.inventoryFloor, ...FLOOR } },
      inventoryCurves: Object.fromEntries(
        Object.entries(config.inventoryCurves).filter(([id]) => !(id in FLOOR)),
      ),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

interface Placed {
  user: LocalUser;
  order: Order;
  secret: string;
}

/**
 * `count` orders of `amount` from FROM to `to`, spread over three users; the solver's inventory of `to` is
 * moved down to its floor plus `covered` and a half fills before the users lock their sources. Checks that
 * only `covered` are filled, the rest wait, and that all are filled once the inventory comes back; the
 * users redeem every fill. Returns what each side paid and got, for the caller's balance checks.
 */
async function burst(to: string, amount: bigint, count: number, covered: number) {
  const users = [t.user(0), t.user(1), t.user(2)];
  const placed: Placed[] = [];
  for (let i = 0; i < count; i++) {
    const user = users[i % users.length]!;
    const { secret, secretHash } = newUserSecret();
    const order = await user.createOrder(await user.bestQuote(FROM, to, amount), {
      secretHash,
      slippageBps: USER_SLIPPAGE_BPS,
    });
    placed.push({ user, order, secret });
  }
  const orders = placed.map((p) => p.order);
  const amountOf = (o: Order): bigint => BigInt(o.destination_swap.amount);
  // Quotes carry the network fees of the moment, so the amounts may differ a little between orders; the
  // room left below holds any `covered` of them and never one more while the spread stays this narrow.
  const largest = orders.map(amountOf).reduce((a, b) => (a > b ? a : b));
  const smallest = orders.map(amountOf).reduce((a, b) => (a < b ? a : b));
  expect(BigInt(covered) * (largest - smallest)).toBeLessThan(smallest / 4n);

  const vaultRent = to === SPL_USDC && !(await splVaultExists(t)) ? VAULT_RENT : 0n;
  const before = {
    solverTo: await solverSolana(t, to),
    solverSol: await solverSolana(t, SOL),
    solverFrom: await solverHolds(t, FROM),
    users: await Promise.all(users.map(async (u) => [await u.balance(to), await u.balance(SOL)] as const)),
  };
  const away = before.solverTo - FLOOR[to]! - BigInt(covered) * largest - smallest / 2n;
  moveSolverSolana(t, users[0]!, to, "away", away);

  // Users in parallel, each one's locks in turn (one account, one nonce at a time).
  await Promise.all(
    users.map(async (user) => {
      for (const p of placed) if (p.user === user) await user.initiateOnChain(p.order);
    }),
  );
  await waitFor(
    () => orders.filter((o) => journaled(t, o).includes("fill:confirmed")).length >= covered,
    `${covered} fills to land`,
  );
  await solverRounds(t, 4);
  const filled = orders.filter((o) => journaled(t, o).length > 0);
  expect(filled).toHaveLength(covered);
  for (const o of orders.filter((x) => !filled.includes(x))) {
    expect(lastReason(t, o)).toBe("insufficient_inventory");
  }
  expect(await solverSolana(t, to)).toBeGreaterThanOrEqual(FLOOR[to]!);

  // Inventory comes back: the orders that waited are filled, none is dropped.
  moveSolverSolana(t, users[0]!, to, "back", away);
  await waitFor(
    () => orders.every((o) => journaled(t, o).includes("fill:confirmed")),
    "every fill to land",
    60_000,
  );
  const redeems = new Map<LocalUser, bigint>();
  for (const p of placed) {
    const redeem = await p.user.redeemSolanaDestination(p.order, p.secret);
    redeems.set(p.user, (redeems.get(p.user) ?? 0n) + feeOf(t, redeem));
  }
  await waitFor(
    () => orders.every((o) => journaled(t, o).includes("redeem:confirmed")),
    "every source redeem to land",
    60_000,
  );

  const fillFees = orders.reduce((sum, o) => sum + solanaFeeOfAction(t, o.order_id, "fill"), 0n);
  const sourceTotal = orders.reduce((sum, o) => sum + BigInt(o.source_swap.amount), 0n);
  expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(sourceTotal);
  for (const [u, user] of users.entries()) {
    const [toBefore, solBefore] = before.users[u]!;
    const got = placed.filter((p) => p.user === user).reduce((sum, p) => sum + amountOf(p.order), 0n);
    const fees = redeems.get(user) ?? 0n;
    if (to === SOL) expect((await user.balance(SOL)) - solBefore).toBe(got - fees);
    else {
      expect((await user.balance(to)) - toBefore).toBe(got);
      expect(solBefore - (await user.balance(SOL))).toBe(fees);
    }
  }
  // The solver paid each fill's amount and fee (each fill's rent came back at its redeem), and the vault's
  // rent if its first fill of the token created the vault; the moves cost it nothing.
  const destinationTotal = orders.reduce((sum, o) => sum + amountOf(o), 0n);
  if (to === SOL) {
    expect(before.solverTo - (await solverSolana(t, SOL))).toBe(destinationTotal + fillFees);
  } else {
    expect(before.solverTo - (await solverSolana(t, to))).toBe(destinationTotal);
    expect(before.solverSol - (await solverSolana(t, SOL))).toBe(fillFees + vaultRent);
  }
}

/** Bursts of orders to SOL and to the SPL token against the inventory above their floors. */
export function solanaInventoryBurst(version: SolanaProgramVersion = "current"): void {
  useNet(version);
  describe("attack: many orders to Solana in one round against a limited inventory", () => {
    it("to SOL: fills only what the SOL above its floor covers, the rest wait, and none is lost", async () => {
      await burst(SOL, 150_000_000n, 5, 2);
    });
    it("to the SPL token: fills only what the tokens above their floor cover, the rest wait", async () => {
      await burst(SPL_USDC, 100_000_000n, 4, 1);
    });
  });
}
