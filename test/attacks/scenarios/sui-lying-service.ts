/**
 * The solver reads the service through a proxy that lies about chosen orders with a Sui source. The user
 * locks the true terms; for each lie the solver must not fill: it waits or refuses, journals and logs the
 * reason, and sends nothing of its inventory. The order id is taken only in the one form the service
 * prints (64 lower-case hex, no `0x`) and only when the terms recompute it in the configured registry.
 * Two orders on one source fill once; amounts restated after the fill move nothing. At the end the
 * solver's SUI and its destination inventory are what its fair fills left, less the gas of what it sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import type { OrderLie } from "../../support/lying-proxy.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { secondSuiRegistry, suiSwapIdIn } from "../support/sui-moves-a.js";
import { SUI, suiBalance, suiGas, suiGasOfAction, solverSui } from "../../e2e/swaps/sui-support.js";

const TO = "arbitrum_localnet:wbtc";
/** 50 SUI. */
export const SUI_AMOUNT = 50_000_000_000n;
/** Time the solver is given after its decision to show it still sends nothing (its rounds are 500 ms). */
const SETTLE_MS = 3_000;

let t: AttackNet;

async function holdings() {
  return { sui: solverSui(t), to: await solverHolds(t, TO) };
}

async function order(user: LocalUser, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(SUI, TO, SUI_AMOUNT);
  return user.createOrder(quote, secretHash === undefined ? {} : { secretHash });
}

/** The user locks the true terms (or not), the service lies; the solver waits or refuses, sending nothing. */
async function expectNoFill(
  user: LocalUser,
  lie: OrderLie,
  reason: string,
  outcome: "refuse" | "wait",
  lock = true,
): Promise<string> {
  const o = await order(user);
  t.proxy.lieAbout(o.order_id, lie);
  if (lock) await user.initiateSui(o);
  const journal = t.net.solver!.journal;
  await waitFor(() => journal.lastDecision(o.order_id)?.reason === reason, `decision ${reason}`, 30_000);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const decision = journal.lastDecision(o.order_id)!;
  expect([decision.outcome, decision.reason]).toEqual([outcome, reason]);
  expect(journal.orderActions(o.order_id)).toEqual([]);
  const logged = t.log.find((l) => l.orderId === o.order_id && l.reason === reason);
  expect(logged?.msg).toBe(outcome === "refuse" ? "refusing to fill" : "not filling yet");
  return decision.detail;
}

export function suiLyingService(): void {
  describe("a service that lies about Sui sources", () => {
    let before: Awaited<ReturnType<typeof holdings>>;
    /** What the solver's fair fills and its own transactions moved: added to `before` at the end. */
    const fair = { sui: 0n, to: 0n };

    beforeAll(async () => {
      // Every order here is lied about: the solver must never see one before its lie.
      t = await startAttackNet({}, undefined, { onlyNamed: true });
      before = await holdings();
    });
    afterAll(() => stopAttackNet(t));

    it("claims a Sui source initiated and confirmed that the user never locked", async () => {
      const detail = await expectNoFill(
        t.user(0),
        (o) => {
          o.status = "Initiated";
          o.source_swap.initiate_tx_hash = "5".repeat(44);
          o.source_swap.initiate_block_number = "3";
          o.source_swap.filled_amount = o.source_swap.amount;
          o.source_swap.current_confirmations = o.source_swap.required_confirmations + 10;
        },
        "source_not_initiated",
        "wait",
        false,
      );
      expect(detail).toBe("no deposit on the source chain yet");
    });

    /**
     * The order at the stated id says other terms than the service: refused for good, and since the lock is
     * the user's and the solver, its redeemer, holds no fill against it, handed back at once by its own
     * `instant_refund` (no signature: the redeemer sends it).
     */
    async function refusedAndGivenBack(user: LocalUser, lie: OrderLie, differs: string): Promise<void> {
      const o = await order(user);
      const userSui = suiBalance(t, SUI, user.sui.address);
      t.proxy.lieAbout(o.order_id, lie);
      const lock = await user.initiateSui(o);
      await waitFor(() => journaled(t, o).includes("instant_refund:confirmed"), "the instant refund", 30_000);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      const refusal = t.net
        .solver!.journal.decisions(o.order_id)
        .find((d) => d.reason === "source_differs_from_chain");
      expect([refusal?.outcome, refusal?.detail]).toEqual(["refuse", expect.stringContaining(differs)]);
      // The user has the lock back, less the lock's gas; the solver paid the refund's gas.
      expect(userSui - suiBalance(t, SUI, user.sui.address)).toBe(await suiGas(t, lock));
      fair.sui -= await suiGasOfAction(t, o.order_id, "instant_refund");
    }

    it("claims a larger source than the user locked: the order at that id says less; given back", async () => {
      await refusedAndGivenBack(
        t.user(0),
        (o) => {
          o.source_swap.amount = (BigInt(o.source_swap.amount) * 2n).toString();
          o.source_swap.filled_amount = o.source_swap.amount;
        },
        `amount: order says ${SUI_AMOUNT * 2n}, chain has ${SUI_AMOUNT}`,
      );
    });

    it("names someone else as the source's redeemer", async () => {
      const user = t.user(1);
      await expectNoFill(
        user,
        (o) => {
          o.source_swap.redeemer = user.sui.address;
        },
        "solver_not_redeemer",
        "refuse",
      );
    });

    it("states a longer timelock than the user locked: the order at that id says less; given back", async () => {
      await refusedAndGivenBack(
        t.user(1),
        (o) => {
          o.source_swap.timelock *= 2;
        },
        "timelock: order says",
      );
    });

    it("states another secret hash than the user locked, on both sides", async () => {
      const other = newUserSecret().secretHash;
      await expectNoFill(
        t.user(2),
        (o) => {
          o.source_swap.secret_hash = other;
          o.destination_swap.secret_hash = other;
        },
        "swap_id_mismatch",
        "refuse",
      );
    });

    const spellings: [string, (id: string) => string][] = [
      ["with 0x", (id) => `0x${id}`],
      ["in upper case", (id) => id.toUpperCase()],
    ];
    for (const [label, spell] of spellings) {
      it(`states the source's own id ${label}: taken in no other form than the service's, nothing is read or sent`, async () => {
        let spelled = "";
        await expectNoFill(
          t.user(2),
          (o) => {
            o.source_swap.swap_id = spell(o.source_swap.swap_id);
            spelled = o.source_swap.swap_id;
          },
          "source_chain_unreadable",
          "wait",
        );
        const warned = t.log.lines
          .filter((l) => l.msg === "chain read failed")
          .map((l) => (l.err as { message?: string } | undefined)?.message ?? "");
        expect(warned.some((m) => m.includes(`swap id "${spelled}" is not 64 lower-case hex`))).toBe(true);
      });
    }

    it("states the id these terms have in another registry of the same coin: no order in the configured one", async () => {
      const other = secondSuiRegistry(t);
      await expectNoFill(
        t.user(0),
        (o) => {
          o.source_swap.swap_id = suiSwapIdIn(o.source_swap, other);
        },
        "source_not_initiated",
        "wait",
      );
    });

    it("offers two orders on one Sui source: the solver fills one of them only", async () => {
      const [alice, bob] = [t.user(1), t.user(2)];
      const { secret, secretHash } = newUserSecret();
      const first = await order(alice, secretHash);
      const second = await order(bob, secretHash);
      t.proxy.lieAbout(first.order_id, () => undefined);
      t.proxy.lieAbout(second.order_id, (lied) => {
        lied.source_swap = { ...first.source_swap };
      });
      await alice.initiateSui(first);
      const filled = () => [first, second].filter((o) => journaled(t, o).some((a) => a.startsWith("fill:")));
      await waitFor(() => filled().length > 0, "a fill", 60_000);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      expect(filled()).toHaveLength(1);
      const taken = filled()[0]!;
      const other = taken === first ? second : first;
      expect(journaled(t, other)).toEqual([]);
      expect(t.net.solver!.journal.lastDecision(other.order_id)?.reason).toBe("source_backs_another_order");

      await waitFor(() => journaled(t, taken).includes("fill:confirmed"), "the fill", 60_000);
      await (taken === first ? alice : bob).redeemDestination(taken, secret);
      await waitFor(() => journaled(t, taken).includes("redeem:confirmed"), "the source redeem", 60_000);
      expect(journaled(t, other)).toEqual([]);
      fair.sui += SUI_AMOUNT - (await suiGasOfAction(t, taken.order_id, "redeem"));
      fair.to -= BigInt(taken.destination_swap.amount);
      t.proxy.stopLying(second.order_id);
    }, 120_000);

    it("restates the amounts once the solver filled: it redeems the source it filled against", async () => {
      const user = t.user(0);
      const o = await order(user);
      t.proxy.lieAbout(o.order_id, () => undefined);
      await user.initiateSui(o);
      await waitFor(() => journaled(t, o).some((a) => a.startsWith("fill:")), "the fill", 60_000);
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.source_swap.amount = (BigInt(lied.source_swap.amount) * 2n).toString();
        lied.destination_swap.amount = (BigInt(lied.destination_swap.amount) * 2n).toString();
      });
      await waitFor(
        () => journaled(t, o).join() === "fill:confirmed,redeem:confirmed",
        "the fill and the source redeem",
        60_000,
      );
      fair.sui += SUI_AMOUNT - (await suiGasOfAction(t, o.order_id, "redeem"));
      fair.to -= BigInt(o.destination_swap.amount);
      t.proxy.stopLying(o.order_id);
    }, 120_000);

    it("made the solver fill nothing beyond the fair fills", async () => {
      expect(await holdings()).toEqual({ sui: before.sui + fair.sui, to: before.to + fair.to });
    });
  });
}
