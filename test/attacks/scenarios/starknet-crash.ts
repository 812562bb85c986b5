/**
 * A Starknet fill interrupted on its way to the chain: the solver runs as its own process (`solver run`)
 * and is SIGKILLed right after it broadcast the fill. Restarted on the same journal it completes the swap
 * with that one fill: one `Initiated` under the order id (the journaled transaction), one nonce used by
 * the solver's account, the solver out the amount and that one transaction's fee, the user paid once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starknetRpc } from "@htlc-solver/localnet/families/starknet/chain/local-account.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { isFillLine, SolverProcessHarness } from "../../e2e/swaps/solver-process-harness.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetHtlcEvents,
  STARKNET_WBTC,
} from "../../e2e/swaps/starknet-support.js";

const SOURCE = "ethereum_localnet:wbtc";
const felt = (hash: unknown) => BigInt(String(hash));

export function starknetCrashMidFill(): void {
  describe("a Starknet fill interrupted by a crash", () => {
    let t: TestLocalnet;
    let harness: SolverProcessHarness;

    beforeAll(async () => {
      t = await startTestLocalnet({ startSolver: false });
      harness = new SolverProcessHarness(t, t.net.solverConfig);
    });
    afterAll(async () => {
      await harness?.killAll();
      await t?.net.stop();
    });

    const solverNonce = async () =>
      BigInt(
        await starknetRpc<string>(t.net.starknet.rpcUrl, "starknet_getNonce", [
          "latest",
          t.net.descriptor.solver.starknetAddress,
        ]),
      );

    it("killed right after broadcasting the fill, the restarted solver completes the swap with that one fill", async () => {
      const user = t.user(0);
      const env = { SOLVER_STARKNET_PRIVATE_KEY: harness.config.solver.keys.starknet };
      const before = {
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        nonce: await solverNonce(),
      };
      const first = await harness.start(env);
      const order = await user.createOrder(await user.bestQuote(SOURCE, STARKNET_WBTC, 1_000_000n));
      const killed = first.killOnLog(
        isFillLine("transaction broadcast", order.order_id),
        "the fill broadcast",
      );
      await user.initiateOnChain(order);
      const broadcast = await killed;
      expect((await first.exited).signal).toBe("SIGKILL");
      expect(harness.fillOf(order.order_id).attempts.map((a) => [felt(a.txHash), a.state])).toEqual([
        [felt(broadcast.txHash), "broadcast"],
      ]);

      const second = await harness.start(env);
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
      expect(felt(done.destination_swap.initiate_tx_hash)).toBe(felt(broadcast.txHash));
      expect(
        second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
      ).toEqual([]);
      await waitFor(
        () => harness.fillOf(order.order_id).fill?.status === "confirmed",
        "the fill to be final",
        60_000,
      );
      await harness.stopCleanly(second);
      expect(harness.fillOf(order.order_id).attempts.map((a) => [felt(a.txHash), a.state])).toEqual([
        [felt(broadcast.txHash), "confirmed"],
      ]);

      const amount = BigInt(done.destination_swap.amount);
      const events = await starknetHtlcEvents(t, done.destination_swap);
      expect(events.map((e) => [e.name, e.name === "Initiated" ? felt(e.txHash) : 0n])).toEqual([
        ["Initiated", felt(broadcast.txHash)],
        ["Redeemed", 0n],
      ]);
      expect(await solverNonce()).toBe(before.nonce + 1n);
      expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
      expect(before.solverStrk - solverStrk(t)).toBe(
        await starknetFee(t, done.destination_swap.initiate_tx_hash),
      );
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address) - before.userWbtc).toBe(amount);
    }, 180_000);
  });
}
