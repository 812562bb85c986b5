/**
 * The solver reads the service through a proxy that lies about chosen orders with a Starknet source. The
 * user locks the true terms; for each lie the solver must not fill: it waits or refuses, journals and
 * logs the reason, and sends nothing. The swap id is taken only in the one form the service prints and
 * only when the terms recompute it, so the same id with a `0x`, in upper case or with leading zeros, and
 * the id the other contract version would give, are each refused. Two orders on one source fill once;
 * amounts restated after the fill move nothing. At the end the solver's Starknet tokens and STRK, and its
 * EVM inventory, are what its fair fills left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import { computeStarknetSwapId } from "../../../src/chains/starknet/order-id.js";
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
import { starknetAssetOf } from "../support/starknet-moves-a.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFeeOfAction,
  STARKNET_WBTC,
} from "../../e2e/swaps/starknet-support.js";

const TO = "arbitrum_localnet:wbtc";
const AMOUNT = 1_000_000n;
/** Time the solver is given after its decision to show it still sends nothing (its rounds are 500 ms). */
const SETTLE_MS = 3_000;

let t: AttackNet;

async function holdings() {
  return {
    wbtc: solverStarknet(t, STARKNET_WBTC),
    strk: solverStrk(t),
    to: await solverHolds(t, TO),
  };
}

async function order(user: LocalUser, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(STARKNET_WBTC, TO, AMOUNT);
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
  if (lock) await user.initiateStarknet(o);
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

export function starknetLyingService(): void {
  describe("a service that lies about Starknet sources", () => {
    let before: Awaited<ReturnType<typeof holdings>>;
    /** What the solver's fair fills moved: added to `before` at the end. */
    const fair = { wbtc: 0n, strk: 0n, to: 0n };

    beforeAll(async () => {
      // Every order here is lied about: the solver must never see one before its lie.
      t = await startAttackNet({}, undefined, { onlyNamed: true });
      before = await holdings();
    });
    afterAll(() => stopAttackNet(t));

    it("claims a Starknet source initiated and confirmed that the user never locked", async () => {
      const detail = await expectNoFill(
        t.user(0),
        (o) => {
          o.status = "Initiated";
          o.source_swap.initiate_tx_hash = `0x${"5".repeat(63)}`;
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
     * The stored order at the stated id says other terms than the service: refused for good, and since
     * the lock is the user's and no fill of the solver's exists, handed back at once by instant refund.
     */
    async function refusedAndGivenBack(user: LocalUser, lie: OrderLie, differs: string): Promise<void> {
      const o = await order(user);
      const userWbtc = starknetBalance(t, STARKNET_WBTC, user.starknet.address);
      t.proxy.lieAbout(o.order_id, lie);
      await user.initiateStarknet(o);
      await waitFor(() => journaled(t, o).includes("instant_refund:confirmed"), "the instant refund", 30_000);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      const refusal = t.net
        .solver!.journal.decisions(o.order_id)
        .find((d) => d.reason === "source_differs_from_chain");
      expect([refusal?.outcome, refusal?.detail]).toEqual(["refuse", expect.stringContaining(differs)]);
      // The user has the lock back (less the lock's fee, in STRK); the solver paid the refund's fee.
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(userWbtc);
      fair.strk -= await starknetFeeOfAction(t, o.order_id, "instant_refund");
    }

    it("claims a larger source than the user locked: the order at that id says less; given back", async () => {
      await refusedAndGivenBack(
        t.user(0),
        (o) => {
          o.source_swap.amount = (BigInt(o.source_swap.amount) * 2n).toString();
          o.source_swap.filled_amount = o.source_swap.amount;
        },
        `amount: order says ${AMOUNT * 2n}, chain has ${AMOUNT}`,
      );
    });

    it("names someone else as the source's redeemer", async () => {
      const user = t.user(1);
      await expectNoFill(
        user,
        (o) => {
          o.source_swap.redeemer = user.starknet.address;
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
      ["with leading zeros", (id) => id.padStart(64, "0")],
    ];
    for (const [label, spell] of spellings) {
      it(`states the source's own id ${label}: taken in no other form than the service's, nothing is read or sent`, async () => {
        const user = t.user(2);
        let spelled = "";
        await expectNoFill(
          user,
          (o) => {
            o.source_swap.swap_id = spell(o.source_swap.swap_id);
            spelled = o.source_swap.swap_id;
          },
          "source_chain_unreadable",
          "wait",
        );
        // The decision names no reason of the service's; the read's warning names the id refused.
        const warned = t.log.lines
          .filter((l) => l.msg === "chain read failed")
          .map((l) => (l.err as { message?: string } | undefined)?.message ?? "");
        expect(warned.some((message) => message.includes(`swap id "${spelled}" is not lower-case hex`))).toBe(
          true,
        );
      });
    }

    it("states the id the audited contract would give these terms: no order there", async () => {
      await expectNoFill(
        t.user(0),
        (o) => {
          const swap = o.source_swap;
          o.source_swap.swap_id = computeStarknetSwapId({
            layout: "audited",
            chainId: t.net.descriptor.starknet.chainId,
            initiator: swap.initiator,
            redeemer: swap.redeemer,
            timelock: BigInt(swap.timelock),
            amount: BigInt(swap.amount),
            secretHash: swap.secret_hash,
            htlc: starknetAssetOf(t, swap).htlc,
          });
        },
        "source_not_initiated",
        "wait",
      );
    });

    it("offers two orders on one Starknet source: the solver fills one of them only", async () => {
      const [alice, bob] = [t.user(1), t.user(2)];
      const { secret, secretHash } = newUserSecret();
      const first = await order(alice, secretHash);
      // Same secret and amount from bob (his own source, so the service takes it); then the service says
      // bob's order is backed by alice's source.
      const second = await order(bob, secretHash);
      t.proxy.lieAbout(first.order_id, () => undefined);
      t.proxy.lieAbout(second.order_id, (lied) => {
        lied.source_swap = { ...first.source_swap };
      });
      await alice.initiateStarknet(first);
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
      fair.wbtc += AMOUNT;
      fair.strk -= await starknetFeeOfAction(t, taken.order_id, "redeem");
      fair.to -= BigInt(taken.destination_swap.amount);
      t.proxy.stopLying(second.order_id);
    }, 120_000);

    it("restates the amounts once the solver filled: it redeems the source it filled against", async () => {
      const user = t.user(0);
      const o = await order(user);
      t.proxy.lieAbout(o.order_id, () => undefined);
      await user.initiateStarknet(o);
      await waitFor(() => journaled(t, o).some((a) => a.startsWith("fill:")), "the fill", 60_000);
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.source_swap.amount = (BigInt(lied.source_swap.amount) * 2n).toString();
        lied.destination_swap.amount = (BigInt(lied.destination_swap.amount) * 2n).toString();
      });
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem", 60_000);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      fair.wbtc += AMOUNT;
      fair.strk -= await starknetFeeOfAction(t, o.order_id, "redeem");
      fair.to -= BigInt(o.destination_swap.amount);
      t.proxy.stopLying(o.order_id);
    }, 120_000);

    it("made the solver fill nothing beyond the one fair fill", async () => {
      expect(await holdings()).toEqual({
        wbtc: before.wbtc + fair.wbtc,
        strk: before.strk + fair.strk,
        to: before.to + fair.to,
      });
    });
  });
}
