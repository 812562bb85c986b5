/**
 * The solver's Starknet node lies about its fill: every transaction that initiated the order's id is
 * reported REVERTED, without its events, while the HTLC holds the solver's order. Taken at its word the
 * solver would fill again (a second transaction at the next nonce, refused by the HTLC as a duplicate,
 * its fee lost) or abandon a swap whose fill the user can redeem. The solver never fills over a record
 * at the order id (`destination_occupied`; the executor also refuses a fill the HTLC already holds, and
 * one whose estimate fails), still follows the order, and redeems its source: one `Initiated`, one nonce
 * used and one fee paid on Starknet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SolverConfig } from "../../../src/config/types.js";
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
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { StarknetNodeProxy } from "../support/starknet-node-proxy.js";
import { solverStarknetAccount, starknetOrderId } from "../support/starknet-moves-b.js";

const STARKNET_CHAIN = "starknet_localnet";
const FROM = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;

let t: AttackNet;
let node: StarknetNodeProxy;

export function starknetLyingNode(): void {
  beforeAll(async () => {
    t = await startAttackNet({}, async (config: SolverConfig) => {
      node = new StarknetNodeProxy(config.chains.find((c) => c.name === STARKNET_CHAIN)!.rpcUrls[0]!);
      await node.start();
      return {
        ...config,
        chains: config.chains.map((c) => (c.name === STARKNET_CHAIN ? { ...c, rpcUrls: [node.url] } : c)),
      };
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
    await node?.stop();
  });

  describe("attack: the solver's Starknet node reports its fill REVERTED", () => {
    it("never fills twice: the swap completes with the one fill", async () => {
      const user = t.user(0);
      const order = await user.createOrder(await user.bestQuote(FROM, STARKNET_WBTC, AMOUNT));
      node.sayInitiationsOfReverted(starknetOrderId(order.destination_swap));
      const amount = BigInt(order.destination_swap.amount);
      const account = solverStarknetAccount(t);
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        solverFrom: await solverHolds(t, FROM),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        userFrom: await user.balance(FROM),
        nonce: await account.nonce(),
      };
      await user.initiateOnChain(order);
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        90_000,
      );
      console.log(
        `lying node: ${node.liedReverted} answers said the fill reverted; journal: ${journaled(t, order).join(", ")}`,
      );
      expect(node.liedReverted).toBeGreaterThan(0);

      const events = await starknetHtlcEvents(t, done.destination_swap);
      expect(events.map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
      expect(await account.nonce()).toBe(before.nonce + 1n);
      expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
      expect(before.solverStrk - solverStrk(t)).toBe(await starknetFee(t, events[0]!.txHash));
      expect((await solverHolds(t, FROM)) - before.solverFrom).toBe(BigInt(order.source_swap.amount));
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address) - before.userWbtc).toBe(amount);
      expect(before.userFrom - (await user.balance(FROM))).toBe(BigInt(order.source_swap.amount));
    }, 240_000);
  });
}
