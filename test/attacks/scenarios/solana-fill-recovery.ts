/**
 * A Solana fill interrupted on its way to the chain, with the solver as its own process (`solver run`)
 * reaching the cluster through a proxy: SIGKILLed right after the fill's broadcast, SIGKILLed after
 * journaling it while the cluster has not seen it, and a fill the node took but lost until its blockhash
 * expired. Each ends with exactly one fill on chain (one Initiated event, one journaled attempt landed),
 * the user paid once and the solver out the amount and that one fill's fee.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SolverConfig } from "../../../src/config/types.js";
import type { AttemptRow } from "../../../src/journal/journal.js";
import type { Order } from "../../../src/orderbook/types.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { HoldingRpcProxy } from "../../e2e/cli/support/holding-rpc-proxy.js";
import type { SolverProcess } from "../../e2e/cli/support/solver-process.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { htlcEventsOf, signatureOfWire, SOL, solverSolana } from "../../e2e/swaps/solana-support.js";
import { isFillLine, SolverProcessHarness } from "../../e2e/swaps/solver-process-harness.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

const SOURCE = "ethereum_localnet:usdc";

/** A Solana fill interrupted on its way to the chain. */
export function solanaFillInterrupted(version: SolanaProgramVersion = "current"): void {
  describe("a Solana fill interrupted on its way to the chain", () => {
    let t: TestLocalnet;
    let proxy: HoldingRpcProxy;
    let harness: SolverProcessHarness;

    beforeAll(async () => {
      t = await startTestLocalnet({ solanaProgramVersion: version, startSolver: false });
      proxy = new HoldingRpcProxy(t.net.solana.rpcUrl);
      proxy.acceptedAs = signatureOfWire;
      await proxy.start();
      const base = t.net.solverConfig;
      const config: SolverConfig = {
        ...base,
        chains: base.chains.map((c) => (c.family === "solana" ? { ...c, rpcUrls: [proxy.url] } : c)),
      };
      harness = new SolverProcessHarness(t, config);
    });

    afterAll(async () => {
      await harness?.killAll();
      await proxy?.stop();
      await t?.net.stop();
    });

    const startSolver = () => harness.start();
    const stopCleanly = (solver: SolverProcess) => harness.stopCleanly(solver);
    const fillAttempts = (orderId: string): AttemptRow[] => harness.fillOf(orderId).attempts;

    const userOf = (order: Order) => {
      const index = t.net.descriptor.users.findIndex(
        (u) => u.solana.address === order.destination_swap.redeemer,
      );
      return t.user(index);
    };

    async function newOrder(userIndex: number): Promise<Order> {
      const user = t.user(userIndex);
      return user.createOrder(await user.bestQuote(SOURCE, SOL, 60_000_000n));
    }

    /**
     * The fill landed once: one Initiated (then the service's Redeemed) at the swap account; the solver is
     * out the amount and that one transaction's fee (the swap data's rent came back at the redeem), the
     * user has the amount.
     */
    async function expectOneFill(done: Order, fillTx: string, userSol: bigint, solverSol: bigint) {
      const amount = BigInt(done.destination_swap.amount);
      const events = htlcEventsOf(t, done.destination_swap);
      expect(events.map((e) => [e.name, e.name === "Initiated" ? e.signature : ""])).toEqual([
        ["Initiated", fillTx],
        ["Redeemed", ""],
      ]);
      expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + events[0]!.fee);
      expect((await userOf(done).balance(SOL)) - userSol).toBe(amount);
    }

    it("killed right after broadcasting the fill, it completes the swap with that one fill", async () => {
      const user = t.user(0);
      const [userSol, solverSol] = [await user.balance(SOL), await solverSolana(t, SOL)];
      const first = await startSolver();
      const order = await newOrder(0);
      const killed = first.killOnLog(
        isFillLine("transaction broadcast", order.order_id),
        "the fill broadcast",
      );
      await user.initiateWithSignature(order);
      const broadcast = await killed;
      expect((await first.exited).signal).toBe("SIGKILL");
      expect(fillAttempts(order.order_id).map((a) => [a.txHash, a.state])).toEqual([
        [broadcast.txHash, "broadcast"],
      ]);

      const second = await startSolver();
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
      expect(done.destination_swap.initiate_tx_hash).toBe(broadcast.txHash);
      expect(
        second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
      ).toEqual([]);
      await waitFor(
        () => fillAttempts(order.order_id).every((a) => a.state === "confirmed"),
        "the fill to be final",
      );
      await stopCleanly(second);
      expect(fillAttempts(order.order_id).map((a) => [a.txHash, a.state])).toEqual([
        [broadcast.txHash, "confirmed"],
      ]);
      await expectOneFill(done, String(broadcast.txHash), userSol, solverSol);
    }, 180_000);

    it("killed after journaling the fill the cluster never saw, it sends the same transaction again", async () => {
      const user = t.user(1);
      const [userSol, solverSol] = [await user.balance(SOL), await solverSolana(t, SOL)];
      proxy.holdSends = true;
      const first = await startSolver();
      const order = await newOrder(1);
      const killed = first.killOnLog(
        isFillLine("transaction signed and journaled", order.order_id),
        "the fill signed",
      );
      await user.initiateWithSignature(order);
      const signed = await killed;
      expect((await first.exited).signal).toBe("SIGKILL");
      expect(fillAttempts(order.order_id).map((a) => [a.txHash, a.state])).toEqual([
        [signed.txHash, "signed"],
      ]);
      expect(t.net.solana.local.chain.transaction(String(signed.txHash))).toBeUndefined();

      proxy.holdSends = false;
      const second = await startSolver();
      await second.waitForLog(
        (l) => l.msg === "re-broadcast the journaled transaction" && l.txHash === signed.txHash,
        "the journaled fill re-broadcast",
      );
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
      expect(done.destination_swap.initiate_tx_hash).toBe(signed.txHash);
      expect(
        second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
      ).toEqual([]);
      await waitFor(
        () => fillAttempts(order.order_id).every((a) => a.state === "confirmed"),
        "the fill to be final",
      );
      await stopCleanly(second);
      expect(fillAttempts(order.order_id).map((a) => [a.txHash, a.state])).toEqual([
        [signed.txHash, "confirmed"],
      ]);
      await expectOneFill(done, String(signed.txHash), userSol, solverSol);
    }, 180_000);

    it("a fill the node lost until its blockhash expired is rebuilt, and lands once", async () => {
      const user = t.user(2);
      const [userSol, solverSol] = [await user.balance(SOL), await solverSolana(t, SOL)];
      let lostSignature: string | null = null;
      // The first send is answered as accepted and never reaches the cluster; so is every re-send of it.
      proxy.loses = (raw) => {
        const signature = signatureOfWire(raw);
        lostSignature ??= signature;
        return signature === lostSignature;
      };
      const solver = await startSolver();
      const order = await newOrder(2);
      const broadcastLine = solver.waitForLog(
        isFillLine("transaction broadcast", order.order_id),
        "the fill broadcast",
      );
      await user.initiateWithSignature(order);
      const lost = await broadcastLine;
      expect(lost.txHash).toBe(lostSignature);
      // 150 blocks of validity, then 32 until that height is final: past both, the fill can never land.
      t.net.solana.local.advanceSlots(200n);
      const rebuilt = await solver.waitForLog(
        (l) => isFillLine("transaction broadcast", order.order_id)(l) && l.txHash !== lostSignature,
        "the rebuilt fill broadcast",
        60_000,
      );
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
      expect(done.destination_swap.initiate_tx_hash).toBe(rebuilt.txHash);
      await waitFor(
        () => fillAttempts(order.order_id).some((a) => a.state === "confirmed"),
        "the rebuilt fill to be final",
      );
      await stopCleanly(solver);
      proxy.loses = null;

      const attempts = fillAttempts(order.order_id);
      expect(attempts.map((a) => [a.txHash, a.state])).toEqual([
        [lostSignature, "dropped"],
        [rebuilt.txHash, "confirmed"],
      ]);
      expect(proxy.lost.map(signatureOfWire).every((s) => s === lostSignature)).toBe(true);
      expect(t.net.solana.local.chain.transaction(lostSignature!)).toBeUndefined();
      await expectOneFill(done, String(rebuilt.txHash), userSol, solverSol);
    }, 180_000);
  });
}
