/**
 * The solver's gas coin spent by another transaction of the same account between its reads and its send:
 * right after the dry run of the solver's fill, a wallet holding the same key (an operator's) pays a
 * transaction's gas with the very coin the fill was built on. The fill's bytes name a version of the coin
 * that is no longer current: the node refuses them and nothing executes. The solver finds its attempt
 * dead (its input moved on by another transaction), builds the fill again on current coins and completes
 * the swap with exactly one fill: one `Initiated` under the order id, the solver out the amount once, the
 * landed fill's gas and the operator's transaction's gas, the user paid once.
 */
import { bcs } from "@mysten/sui/bcs";
import { Transaction } from "@mysten/sui/transactions";
import { fromBase64 } from "@mysten/sui/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import { startThroughSuiNode, type SuiNodeProxy } from "../support/sui-node-proxy.js";
import { solverSuiAccount } from "../support/sui-moves-b.js";
import { solverSui, SUI, suiBalance, suiGas, suiSwapEvents } from "../../e2e/swaps/sui-support.js";

const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;

let t: AttackNet;
let node: SuiNodeProxy;

export function suiGasCoinTaken(): void {
  describe("attack: the fill's gas coin spent by another transaction of the solver's account before the fill is sent", () => {
    beforeAll(async () => {
      ({ t, node } = await startThroughSuiNode());
    });
    afterAll(async () => {
      await stopAttackNet(t);
      await node?.stop();
    });

    it("recovers: the fill is built again on current coins and lands once", async () => {
      const user = t.user(0);
      const operator = solverSuiAccount(t);
      const order = await user.createOrder(await user.bestQuote(FROM, SUI, AMOUNT));
      const amount = BigInt(order.destination_swap.amount);
      const before = {
        solverSui: solverSui(t),
        solverFrom: await solverHolds(t, FROM),
        userSui: suiBalance(t, SUI, user.sui.address),
        userFrom: await user.balance(FROM),
      };
      let taken: { coin: string; digest: string } | undefined;
      node.afterNextDryRun(async (txBytes) => {
        const [coin] = bcs.TransactionData.parse(fromBase64(txBytes)).V1!.gasData.payment;
        const tx = new Transaction();
        tx.transferObjects([tx.splitCoins(tx.gas, [1n])[0]!], operator.address);
        const answer = await operator.execute(tx, { gasPayment: [coin!] });
        if (answer.effects?.status.status !== "success") throw new Error("the operator's transaction failed");
        taken = { coin: coin!.objectId, digest: answer.digest };
      });
      await user.initiateOnChain(order);
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        90_000,
      );
      expect(taken).toBeDefined();

      const journal = t.net.solver!.journal;
      const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      const attempts = journal.attemptsOfAction(fill.id);
      console.log(
        `gas coin taken: fill attempts ${attempts.map((a) => `${a.txHash}:${a.state}`).join(", ")}`,
      );
      expect(attempts.map((a) => a.state)).toEqual(["dropped", "confirmed"]);
      const [refused, landed] = attempts;
      expect(
        refused!.terms.family === "sui" && refused!.terms.ownedInputs.some((i) => i.startsWith(taken!.coin)),
      ).toBe(true);
      expect(done.destination_swap.initiate_tx_hash).toBe(landed!.txHash);
      expect(await suiSwapEvents(t, done.destination_swap)).toEqual([
        { name: "Initiated", txDigest: landed!.txHash },
        { name: "Redeemed", txDigest: done.destination_swap.redeem_tx_hash },
      ]);

      expect(before.solverSui - solverSui(t)).toBe(
        amount + (await suiGas(t, landed!.txHash)) + (await suiGas(t, taken!.digest)),
      );
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(BigInt(order.source_swap.amount));
      expect(suiBalance(t, SUI, user.sui.address) - before.userSui).toBe(amount);
      expect(before.userFrom - (await user.balance(FROM))).toBe(BigInt(order.source_swap.amount));
    }, 180_000);
  });
}
