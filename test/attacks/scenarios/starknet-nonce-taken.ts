/**
 * A nonce of the solver's Starknet account taken by another transaction of the same account: while the
 * solver's fill waits for a block, a wallet holding the same key (an operator's) sends a zero transfer at
 * the fill's nonce paying more, which replaces the fill at the node and lands. The solver finds its
 * attempt dead (the account's nonce passed it), builds the fill again at the next nonce and completes the
 * swap with exactly one fill: one `Initiated` under the order id, the solver out the amount once and the
 * two transactions' fees, the user paid once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transferCall } from "../../../src/chains/starknet/htlc-calls.js";
import { invokeOfRaw } from "../../../src/chains/starknet/invoke.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetHtlcEvents,
  STARKNET_WBTC,
} from "../../e2e/swaps/starknet-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, startAttackNet, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import { receiptOf, solverStarknetAccount } from "../support/starknet-moves-b.js";

const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;

let t: AttackNet;

export function starknetNonceTaken(): void {
  beforeAll(async () => {
    t = await startAttackNet();
  });
  afterAll(async () => {
    t?.net.starknet.local.resume();
    await stopAttackNet(t);
  });

  describe("attack: the fill's nonce taken by another transaction of the solver's account", () => {
    it("recovers: the fill is built again at the next nonce and lands once", async () => {
      const user = t.user(0);
      const operator = solverStarknetAccount(t);
      const order = await user.createOrder(await user.bestQuote(FROM, STARKNET_WBTC, AMOUNT));
      const amount = BigInt(order.destination_swap.amount);
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        nonce: await operator.nonce(),
      };
      const local = t.net.starknet.local;
      const journal = t.net.solver!.journal;
      let takerHash: bigint;
      local.pause();
      try {
        await user.initiateOnChain(order);
        await waitFor(() => journaled(t, order).includes("fill:broadcast"), "the fill to be sent", 60_000);
        const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
        const [first] = journal.attemptsOfAction(fill.id);
        expect(first?.nonce).toBe(before.nonce);
        // The same nonce, its tip and L2 gas price half again the fill's: the node replaces the fill.
        const signed = invokeOfRaw(first!.raw);
        const kept = (b: { max_amount: string; max_price_per_unit: string }, num = 1n, den = 1n) => ({
          maxAmount: BigInt(b.max_amount),
          maxPricePerUnit: (BigInt(b.max_price_per_unit) * num) / den,
        });
        const bounds = signed.resource_bounds;
        const solverAddress = t.net.descriptor.solver.starknetAddress;
        takerHash = await operator.send([transferCall(t.net.starknet.strk, solverAddress, 0n)], {
          nonce: before.nonce,
          tip: (BigInt(signed.tip) * 3n) / 2n + 1n,
          resourceBounds: {
            l1Gas: kept(bounds.l1_gas),
            l2Gas: kept(bounds.l2_gas, 3n, 2n),
            l1DataGas: kept(bounds.l1_data_gas),
          },
        });
      } finally {
        local.resume();
      }
      const taker = await receiptOf(t, takerHash);
      expect(taker.execution_status).toBe("SUCCEEDED");

      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to be final", 60_000);
      const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      const attempts = journal.attemptsOfAction(fill.id);
      expect(attempts.map((a) => [a.nonce, a.state])).toEqual([
        [before.nonce, "dropped"],
        [before.nonce + 1n, "confirmed"],
      ]);
      const landed = attempts[1]!;
      expect(BigInt(done.destination_swap.initiate_tx_hash)).toBe(BigInt(landed.txHash));
      const events = await starknetHtlcEvents(t, done.destination_swap);
      expect(events.map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
      expect(await operator.nonce()).toBe(before.nonce + 2n);

      expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
      expect(before.solverStrk - solverStrk(t)).toBe(
        (await starknetFee(t, landed.txHash)) + BigInt(taker.actual_fee.amount),
      );
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address) - before.userWbtc).toBe(amount);
    }, 180_000);
  });
}
