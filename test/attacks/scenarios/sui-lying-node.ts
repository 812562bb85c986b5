/**
 * The solver's Sui node lies about its fill: every transaction that initiated the order's id is reported
 * failed (out of gas, without its events), while the registry holds the solver's order. Taken at its word
 * the solver would fill again (a second transaction, which the module aborts as a duplicate id, its gas
 * lost) or abandon a swap whose fill the user can redeem. The solver never fills over the order the
 * registry holds under the id (the planner reads its own fill there; the executor also refuses a fill
 * the registry already holds, and one whose dry run aborts), still follows the order and redeems its
 * source: one `Initiated` and one fill's gas paid on Sui.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import { startThroughSuiNode, type SuiNodeProxy } from "../support/sui-node-proxy.js";
import { solverSui, SUI, suiBalance, suiGas, suiSwapEvents } from "../../e2e/swaps/sui-support.js";

const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;

let t: AttackNet;
let node: SuiNodeProxy;

export function suiLyingNode(): void {
  describe("attack: the solver's Sui node reports its fill failed", () => {
    beforeAll(async () => {
      ({ t, node } = await startThroughSuiNode());
    });
    afterAll(async () => {
      await stopAttackNet(t);
      await node?.stop();
    });

    it("never fills twice: the swap completes with the one fill", async () => {
      const user = t.user(0);
      const order = await user.createOrder(await user.bestQuote(FROM, SUI, AMOUNT));
      node.sayInitiationsOfFailed(order.destination_swap.swap_id);
      const amount = BigInt(order.destination_swap.amount);
      const before = {
        solverSui: solverSui(t),
        solverFrom: await solverHolds(t, FROM),
        userSui: suiBalance(t, SUI, user.sui.address),
        userFrom: await user.balance(FROM),
      };
      await user.initiateOnChain(order);
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        90_000,
      );
      console.log(
        `lying Sui node: ${node.liedFailed} answers said the fill failed; journal: ${journaled(t, order).join(", ")}`,
      );
      expect(node.liedFailed).toBeGreaterThan(0);

      const events = await suiSwapEvents(t, done.destination_swap);
      expect(events.map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
      const fills = t.net
        .solver!.journal.orderActions(order.order_id)
        .filter((a) => a.kind === "fill")
        .flatMap((a) => t.net.solver!.journal.attemptsOfAction(a.id));
      expect(fills.map((a) => a.txHash)).toEqual([events[0]!.txDigest]);
      expect(before.solverSui - solverSui(t)).toBe(amount + (await suiGas(t, events[0]!.txDigest)));
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(BigInt(order.source_swap.amount));
      expect(suiBalance(t, SUI, user.sui.address) - before.userSui).toBe(amount);
      expect(before.userFrom - (await user.balance(FROM))).toBe(BigInt(order.source_swap.amount));
    }, 240_000);
  });
}
