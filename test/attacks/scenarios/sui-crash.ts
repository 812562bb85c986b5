/**
 * A Sui fill interrupted on its way to the chain: the solver runs as its own process (`solver run`) and is
 * SIGKILLed right after it sent the fill. Restarted on the same journal it completes the swap with that
 * one fill: one `Initiated` under the order id (the journaled transaction's digest), the solver out the
 * amount and that one transaction's gas, the user paid once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { isFillLine, SolverProcessHarness } from "../../e2e/swaps/solver-process-harness.js";
import { solverSui, SUI, suiBalance, suiGas, suiSwapEvents } from "../../e2e/swaps/sui-support.js";

const SOURCE = "ethereum_localnet:usdc";

export function suiCrashMidFill(): void {
  describe("a Sui fill interrupted by a crash", () => {
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

    it("killed right after sending the fill, the restarted solver completes the swap with that one fill", async () => {
      const user = t.user(0);
      const env = { SOLVER_SUI_PRIVATE_KEY: harness.config.solver.keys.sui };
      const before = { userSui: suiBalance(t, SUI, user.sui.address), solverSui: solverSui(t) };
      const first = await harness.start(env);
      const order = await user.createOrder(await user.bestQuote(SOURCE, SUI, 30_000_000n));
      const killed = first.killOnLog(
        isFillLine("transaction broadcast", order.order_id),
        "the fill broadcast",
      );
      await user.initiateOnChain(order);
      const broadcast = await killed;
      expect((await first.exited).signal).toBe("SIGKILL");
      expect(harness.fillOf(order.order_id).attempts.map((a) => [a.txHash, a.state])).toEqual([
        [broadcast.txHash, "broadcast"],
      ]);

      const second = await harness.start(env);
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
      expect(done.destination_swap.initiate_tx_hash).toBe(broadcast.txHash);
      expect(
        second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
      ).toEqual([]);
      await waitFor(
        () => harness.fillOf(order.order_id).fill?.status === "confirmed",
        "the fill to be final",
        60_000,
      );
      await harness.stopCleanly(second);
      expect(harness.fillOf(order.order_id).attempts.map((a) => [a.txHash, a.state])).toEqual([
        [broadcast.txHash, "confirmed"],
      ]);

      const amount = BigInt(done.destination_swap.amount);
      expect(await suiSwapEvents(t, done.destination_swap)).toEqual([
        { name: "Initiated", txDigest: broadcast.txHash },
        { name: "Redeemed", txDigest: done.destination_swap.redeem_tx_hash },
      ]);
      expect(before.solverSui - solverSui(t)).toBe(amount + (await suiGas(t, String(broadcast.txHash))));
      // The service redeemed for the user (it holds the secret), its relayer paying the gas.
      expect(suiBalance(t, SUI, user.sui.address) - before.userSui).toBe(amount);
    }, 180_000);
  });
}
