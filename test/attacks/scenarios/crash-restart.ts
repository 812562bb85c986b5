/**
 * The solver runs as its own process (`solver run --config`) and is SIGKILLed in the middle of a fill:
 * once right after the fill's "transaction broadcast" line, once right after "transaction signed and
 * journaled" while the node has not seen the transaction. Restarted on the same journal, it completes the
 * swap with exactly one fill: one journaled attempt, one nonce used on the destination chain, and in the
 * second case the journaled bytes re-broadcast rather than a new transaction built.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Address, type Hex } from "viem";
import type { SolverConfig } from "../../../src/config/types.js";
import type { Order } from "../../../src/orderbook/types.js";
import { signQuoteRequest } from "../../../src/pricing/quote-signature.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { HoldingRpcProxy } from "../../e2e/cli/support/holding-rpc-proxy.js";
import type { SolverProcess } from "../../e2e/cli/support/solver-process.js";
import { bitcoinFeeOf } from "../../support/memory-journal.js";
import { isFillLine, SolverProcessHarness } from "../../e2e/swaps/solver-process-harness.js";

const SOURCE = "ethereum_localnet:usdc";
const DESTINATION_CHAIN = "arbitrum_localnet";
const DESTINATION = `${DESTINATION_CHAIN}:usdc`;

const completed = (o: Order) =>
  o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "";
const bare = (hash: unknown) => String(hash).toLowerCase().replace(/^0x/, "");

/** A solver process killed in the middle of a fill (EVM and Bitcoin), and a second instance on one journal. */
export function crashInTheMiddleOfAFill(family: "evm" | "bitcoin"): void {
  // Each family's tests run under that family; the net is shared by them.
  const itFor =
    (of: "evm" | "bitcoin") =>
    (title: string, fn: () => Promise<void>, timeout?: number): void => {
      if (of === family) it(title, fn, timeout);
    };
  describe("a solver process killed in the middle of a fill", () => {
    let t: TestLocalnet;
    let proxy: HoldingRpcProxy;
    let bitcoinProxy: HoldingRpcProxy;
    let config: SolverConfig;
    let harness: SolverProcessHarness;

    beforeAll(async () => {
      t = await startTestLocalnet({ startSolver: false });
      const anvil = t.net.anvils.get(DESTINATION_CHAIN)!;
      proxy = new HoldingRpcProxy(anvil.rpcUrl);
      await proxy.start();
      bitcoinProxy = new HoldingRpcProxy(t.net.bitcoin.rpcUrl);
      await bitcoinProxy.start();
      // The solver reaches the destination chains through the proxies; everyone else talks to the nodes.
      const base = t.net.solverConfig;
      config = {
        ...base,
        chains: base.chains.map((c) => {
          if (c.name === DESTINATION_CHAIN && c.family === "evm") return { ...c, rpcUrls: [proxy.url] };
          if (c.family === "bitcoin") return { ...c, rpcUrls: [bitcoinProxy.url] };
          return c;
        }),
      };
      harness = new SolverProcessHarness(t, config);
    });

    afterAll(async () => {
      await harness?.killAll();
      await proxy?.stop();
      await bitcoinProxy?.stop();
      await t?.net.stop();
    });

    const startSolver = () => harness.start();
    const fillAttempts = (orderId: string) => harness.fillOf(orderId);
    const stopCleanly = (solver: SolverProcess) => harness.stopCleanly(solver);

    /** The solver's next nonce on the destination chain, counting transactions still in the mempool. */
    async function destinationNonce(): Promise<number> {
      const client = createPublicClient({ transport: http(t.net.anvils.get(DESTINATION_CHAIN)!.rpcUrl) });
      const address = t.net.descriptor.solver.evmAddress as Address;
      return client.getTransactionCount({ address, blockTag: "pending" });
    }

    async function nodeKnows(hash: string): Promise<boolean> {
      const client = createPublicClient({ transport: http(t.net.anvils.get(DESTINATION_CHAIN)!.rpcUrl) });
      return (await client.getTransaction({ hash: `0x${bare(hash)}` as Hex }).catch(() => null)) !== null;
    }

    async function createOrder(userIndex: number): Promise<Order> {
      const user = t.user(userIndex);
      return user.createOrder(await user.bestQuote(SOURCE, DESTINATION, 40_000_000n));
    }

    /** The solver marks its fill confirmed once it is finalityDepth deep, which may come after the swap completes. */
    async function fillFinal(orderId: string): Promise<void> {
      await waitFor(
        () => fillAttempts(orderId).fill?.status === "confirmed",
        "the fill to be final in the journal",
        60_000,
      );
    }

    /** The restarted process serves /health, /metrics and /status about what it did. */
    async function expectOpsSurface(orderId: string): Promise<void> {
      const ops = t.net.descriptor.solver.opsUrl;
      await waitFor(async () => (await fetch(`${ops}/health`)).ok, "/health 200", 20_000);
      const health = (await (await fetch(`${ops}/health`)).json()) as { status: string; checks: unknown };
      expect(health.status).toBe("ok");
      expect(health.checks).toMatchObject({ round: { error: null }, chains: { [DESTINATION_CHAIN]: {} } });
      const metricsText = async () => (await fetch(`${ops}/metrics`)).text();
      await waitFor(
        async () => (await metricsText()).includes('outcome="confirmed"'),
        "a confirmed action",
        20_000,
      );
      const quoteUrl = new URL(
        `${t.net.descriptor.solver.quoteUrl}?from=${SOURCE}&to=${DESTINATION}&from_amount=40000000`,
      );
      // The localnet's solver answers requests signed with its quote secret only.
      const quote = await fetch(quoteUrl, { headers: signQuoteRequest(config.quote.auth.secret, quoteUrl) });
      expect(quote.status).toBe(200);
      const metrics = await metricsText();
      expect(metrics).toMatch(new RegExp(`solver_chain_tip\\{chain="${DESTINATION_CHAIN}"\\} [1-9]`));
      expect(metrics).toMatch(/solver_quote_duration_seconds_count\{outcome="given"\} 1\n/);
      expect(metrics).toMatch(
        /solver_actions_total\{chain="ethereum_localnet",kind="redeem",outcome="sent"\} 1/,
      );
      expect(metrics).toMatch(/solver_inventory\{asset="arbitrum_localnet:usdc"\} [1-9]/);
      const status = (await (await fetch(`${ops}/status`)).json()) as {
        solverId: string;
        recentActions: unknown[];
      };
      expect(status.solverId).toBe(config.solver.id);
      expect(JSON.stringify(status.recentActions)).toContain(orderId);
    }

    itFor("evm")(
      "killed right after broadcasting the fill, it completes the swap without a second fill",
      async () => {
        const first = await startSolver();
        const nonceBefore = await destinationNonce();
        const order = await createOrder(0);
        const killed = first.killOnLog(
          isFillLine("transaction broadcast", order.order_id),
          "the fill broadcast",
        );
        await t.user(0).initiateWithSignature(order);
        const broadcast = await killed;
        expect((await first.exited).signal).toBe("SIGKILL");
        const atKill = fillAttempts(order.order_id);
        expect(atKill.attempts.map((a) => [bare(a.txHash), a.state])).toEqual([
          [bare(broadcast.txHash), "broadcast"],
        ]);

        const second = await startSolver();
        const done = await t.user(0).waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
        expect(bare(done.destination_swap.initiate_tx_hash)).toBe(bare(broadcast.txHash));
        expect(
          second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
        ).toEqual([]);
        await expectOpsSurface(order.order_id);
        await fillFinal(order.order_id);
        await stopCleanly(second);

        const after = fillAttempts(order.order_id);
        expect(after.fill?.status).toBe("confirmed");
        expect(after.attempts.map((a) => [bare(a.txHash), a.state])).toEqual([
          [bare(broadcast.txHash), "confirmed"],
        ]);
        expect(await destinationNonce()).toBe(nonceBefore + 1);
      },
      180_000,
    );

    itFor("evm")(
      "killed after journaling the signed fill but before the node saw it, it re-broadcasts the same bytes",
      async () => {
        proxy.holdSends = true;
        const first = await startSolver();
        const nonceBefore = await destinationNonce();
        const order = await createOrder(1);
        const killed = first.killOnLog(
          isFillLine("transaction signed and journaled", order.order_id),
          "the fill signed",
        );
        await t.user(1).initiateWithSignature(order);
        const signed = await killed;
        expect((await first.exited).signal).toBe("SIGKILL");
        const atKill = fillAttempts(order.order_id);
        expect(atKill.attempts.map((a) => [bare(a.txHash), a.state])).toEqual([
          [bare(signed.txHash), "signed"],
        ]);
        expect(await nodeKnows(String(signed.txHash))).toBe(false);
        expect(await destinationNonce()).toBe(nonceBefore);

        proxy.holdSends = false;
        const second = await startSolver();
        const rebroadcast = await second.waitForLog(
          (l) => l.msg === "re-broadcast the journaled transaction" && bare(l.txHash) === bare(signed.txHash),
          "the journaled fill re-broadcast",
        );
        expect(rebroadcast.chain).toBe(DESTINATION_CHAIN);
        const done = await t.user(1).waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
        expect(bare(done.destination_swap.initiate_tx_hash)).toBe(bare(signed.txHash));
        expect(
          second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
        ).toEqual([]);
        await waitFor(
          async () => (await fetch(`${t.net.descriptor.solver.opsUrl}/health`)).ok,
          "/health 200",
          20_000,
        );
        await fillFinal(order.order_id);
        await stopCleanly(second);

        const after = fillAttempts(order.order_id);
        expect(after.fill?.status).toBe("confirmed");
        expect(after.attempts.map((a) => [bare(a.txHash), a.state])).toEqual([
          [bare(signed.txHash), "confirmed"],
        ]);
        expect(await destinationNonce()).toBe(nonceBefore + 1);
      },
      180_000,
    );

    /** Every output the solver's Bitcoin wallet address holds on chain, confirmed, in sats. */
    async function solverBitcoinHoldings(): Promise<bigint> {
      const scan = await t.net.bitcoin.rpc.scanTxOutSet([t.net.descriptor.solver.bitcoinAddress]);
      return scan.totalAmountSats;
    }

    itFor("bitcoin")(
      "killed right after broadcasting a Bitcoin fill, it completes the swap with that one funding",
      async () => {
        const holdingsBefore = await solverBitcoinHoldings();
        const first = await startSolver();
        const user = t.user(2);
        const order = await user.createOrder(
          await user.bestQuote(SOURCE, "bitcoin_regtest:btc", 60_000_000n),
        );
        const killed = first.killOnLog(
          isFillLine("transaction broadcast", order.order_id),
          "the Bitcoin fill broadcast",
        );
        await user.initiateWithSignature(order);
        const broadcast = await killed;
        expect((await first.exited).signal).toBe("SIGKILL");

        const second = await startSolver();
        const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
        // The HTLC address holds exactly one funding transaction: the one broadcast before the kill.
        const fundings = done.destination_swap.initiate_tx_hash.split(",");
        expect(fundings).toHaveLength(1);
        expect(fundings[0]?.startsWith(`${bare(broadcast.txHash)}:`)).toBe(true);
        expect(
          second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
        ).toEqual([]);
        await fillFinal(order.order_id);
        await stopCleanly(second);

        const after = fillAttempts(order.order_id);
        expect(after.fill?.status).toBe("confirmed");
        expect(after.attempts.map((a) => [bare(a.txHash), a.state])).toEqual([
          [bare(broadcast.txHash), "confirmed"],
        ]);
        // The wallet paid the HTLC once, with the journaled fee, and its change came back: nothing else left it.
        const feeSats = bitcoinFeeOf(after.attempts[0]!);
        expect(holdingsBefore - (await solverBitcoinHoldings())).toBe(
          BigInt(done.destination_swap.amount) + feeSats,
        );
      },
      180_000,
    );

    itFor("bitcoin")(
      "killed after journaling a Bitcoin fill the node never saw, it re-broadcasts the same transaction",
      async () => {
        const holdingsBefore = await solverBitcoinHoldings();
        bitcoinProxy.holdSends = true;
        const first = await startSolver();
        const user = t.user(0);
        const order = await user.createOrder(
          await user.bestQuote(SOURCE, "bitcoin_regtest:btc", 30_000_000n),
        );
        const killed = first.killOnLog(
          isFillLine("transaction signed and journaled", order.order_id),
          "the Bitcoin fill signed",
        );
        await user.initiateWithSignature(order);
        const signed = await killed;
        expect((await first.exited).signal).toBe("SIGKILL");
        expect(fillAttempts(order.order_id).attempts.map((a) => [a.txHash, a.state])).toEqual([
          [signed.txHash, "signed"],
        ]);
        await expect(t.net.bitcoin.rpc.getMempoolEntry(String(signed.txHash))).rejects.toThrow();

        bitcoinProxy.holdSends = false;
        const second = await startSolver();
        await second.waitForLog(
          (l) => l.msg === "re-broadcast the journaled transaction" && l.txHash === signed.txHash,
          "the journaled Bitcoin fill re-broadcast",
        );
        const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
        const fundings = done.destination_swap.initiate_tx_hash.split(",");
        expect(fundings).toHaveLength(1);
        expect(fundings[0]?.startsWith(`${String(signed.txHash)}:`)).toBe(true);
        expect(
          second.logLines().filter(isFillLine("transaction signed and journaled", order.order_id)),
        ).toEqual([]);
        await fillFinal(order.order_id);
        await stopCleanly(second);

        const after = fillAttempts(order.order_id);
        expect(after.attempts.map((a) => [a.txHash, a.state])).toEqual([[signed.txHash, "confirmed"]]);
        const feeSats = bitcoinFeeOf(after.attempts[0]!);
        expect(holdingsBefore - (await solverBitcoinHoldings())).toBe(
          BigInt(done.destination_swap.amount) + feeSats,
        );
      },
      180_000,
    );

    itFor("evm")(
      "a second solver on the same journal is refused while the first runs, and takes over once it died",
      async () => {
        const first = await startSolver();
        // The second waits for the first's lease deadline, finds it renewed, and gives up.
        const second = harness.spawn();
        expect((await second.exited).code).toBe(1);
        expect(second.stderr.join("\n")).toMatch(
          new RegExp(
            `the journal is in use by another solver \\(instance [0-9a-f]{32} on .+, pid ${first.pid}\\)`,
          ),
        );
        await first.kill();
        const third = await startSolver();
        const took = await third.waitForLog(
          (l) => l.msg === "took over the journal lease of a solver that stopped",
          "the takeover",
        );
        expect((took.previous as { pid: number }).pid).toBe(first.pid);
        await stopCleanly(third);
      },
      120_000,
    );
  });
}
