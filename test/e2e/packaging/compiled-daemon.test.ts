/**
 * The solver as the Docker image runs it: compiled by `npm run build` into dist/ and run by plain Node
 * (SOLVER_RUN_FROM=dist picks the build, as a missing tsx does in the image). On the localnet it starts,
 * answers a quote through its compiled quote thread, reports live and ready, and stops cleanly on
 * SIGTERM, at once even while a round waits on a service that never answers; with a fill's broadcast
 * hung, SIGTERM ends it within its shutdown deadline, and the next start completes the swap.
 */
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SolverConfig } from "../../../src/config/types.js";
import { signQuoteRequest } from "../../../src/pricing/quote-signature.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { HoldingRpcProxy } from "../cli/support/holding-rpc-proxy.js";
import { REPO_ROOT } from "../cli/support/solver-process.js";
import { isFillLine, SolverProcessHarness } from "../swaps/solver-process-harness.js";

const FROM_BUILD = { SOLVER_RUN_FROM: "dist" };
const SOURCE = "ethereum_localnet:usdc";
const DESTINATION_CHAIN = "arbitrum_localnet";
const DESTINATION = `${DESTINATION_CHAIN}:usdc`;

async function healthOf(url: string): Promise<{ code: number; reasons: string[] }> {
  const response = await fetch(url);
  const body = (await response.json()) as { reasons: string[] };
  return { code: response.status, reasons: body.reasons };
}

/** An HTTP server that takes every request and never answers: a service that hangs. */
interface SilentService {
  url: string;
  server: Server;
  requests: number;
}

async function silentService(): Promise<SilentService> {
  const silent: SilentService = { url: "", server: createServer(() => (silent.requests += 1)), requests: 0 };
  await new Promise<void>((resolve) => silent.server.listen(0, "127.0.0.1", resolve));
  silent.url = `http://127.0.0.1:${(silent.server.address() as AddressInfo).port}`;
  return silent;
}

describe("the compiled solver (npm run build, plain Node)", () => {
  let t: TestLocalnet;
  let hanging: SilentService;
  const harnesses: SolverProcessHarness[] = [];

  beforeAll(async () => {
    const build = spawnSync("npm", ["run", "build"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(build.status, `npm run build failed:\n${build.stdout}\n${build.stderr}`).toBe(0);
    t = await startTestLocalnet({ startSolver: false });
    hanging = await silentService();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.killAll()));
    hanging?.server.closeAllConnections();
    hanging?.server.close();
    await t?.net.stop();
  });

  it("tells its version and commit", () => {
    const version = spawnSync(process.execPath, ["bin/solver.js", "--version"], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...FROM_BUILD },
      encoding: "utf8",
    });
    expect(version.stderr).toBe("");
    expect(version.stdout).toMatch(/^htlc-solver \d+\.\d+\.\d+ \(commit [0-9a-f]{40}\)\n$/);
  });

  it("starts, quotes, is live and ready, and stops cleanly on SIGTERM", async () => {
    const harness = new SolverProcessHarness(t, t.net.solverConfig);
    harnesses.push(harness);
    const solver = await harness.start(FROM_BUILD);
    const ops = t.net.descriptor.solver.opsUrl;
    await waitFor(
      async () => (await healthOf(`${ops}/health/ready`)).code === 200,
      "/health/ready 200",
      30_000,
    );
    expect(await healthOf(`${ops}/health/live`)).toEqual({ code: 200, reasons: [] });

    const quoteUrl = new URL(
      `${t.net.descriptor.solver.quoteUrl}?from=ethereum_localnet:usdc&to=arbitrum_localnet:usdc&from_amount=40000000`,
    );
    const quote = await fetch(quoteUrl, {
      headers: signQuoteRequest(harness.config.quote.auth.secret, quoteUrl),
    });
    expect(quote.status).toBe(200);
    expect(JSON.stringify(await quote.json())).toContain("arbitrum_localnet:usdc");

    await harness.stopCleanly(solver);
    // It ran the build, not the sources: no TypeScript loader was there to run them.
    expect(solver.stderr.join("\n")).not.toMatch(/tsx/);
  }, 120_000);

  it("stops cleanly at once while a round waits on a service that never answers", async () => {
    const config: SolverConfig = {
      ...t.net.solverConfig,
      service: { ...t.net.solverConfig.service, url: hanging.url },
    };
    const harness = new SolverProcessHarness(t, config);
    harnesses.push(harness);
    const solver = await harness.start(FROM_BUILD);
    await waitFor(() => hanging.requests > 0, "the first poll of the orders", 30_000);
    // The poll's own timeout (10 s) and retries would hold the stop for a minute and more.
    const signalledAt = Date.now();
    await harness.stopCleanly(solver);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
  }, 120_000);

  it("exits 1 within its shutdown deadline while a fill's broadcast hangs, and the next start sends it", async () => {
    const deadlineMs = 1_500;
    const destination = t.net.anvils.get(DESTINATION_CHAIN)!;
    const proxy = new HoldingRpcProxy(destination.rpcUrl);
    await proxy.start();
    try {
      const base = t.net.solverConfig;
      const config: SolverConfig = {
        ...base,
        solver: { ...base.solver, shutdownDeadlineMs: deadlineMs },
        chains: base.chains.map((c) => (c.name === DESTINATION_CHAIN ? { ...c, rpcUrls: [proxy.url] } : c)),
      };
      const harness = new SolverProcessHarness(t, config);
      harnesses.push(harness);
      proxy.holdSends = true;
      const solver = await harness.start(FROM_BUILD);
      const user = t.user(0);
      const order = await user.createOrder(await user.bestQuote(SOURCE, DESTINATION, 40_000_000n));
      await user.initiateWithSignature(order);
      await solver.waitForLog(
        isFillLine("transaction signed and journaled", order.order_id),
        "the fill signed",
      );

      const signalledAt = Date.now();
      solver.signal("SIGTERM");
      expect(await solver.exited).toEqual({ code: 1, signal: null });
      const took = Date.now() - signalledAt;
      expect(took).toBeGreaterThanOrEqual(deadlineMs);
      expect(took).toBeLessThan(deadlineMs + 5_000);
      expect(
        solver.logLines().some((l) => String(l.msg).startsWith("clean stop did not finish in time")),
      ).toBe(true);

      // Nothing was lost by exiting early: the next start sends the journaled fill and the swap completes.
      proxy.holdSends = false;
      await harness.start(FROM_BUILD);
      const done = await user.waitForOrder(
        order.order_id,
        (o) => o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "",
        { timeoutMs: 90_000 },
      );
      expect(done.destination_swap.initiate_tx_hash).not.toBe("");
      expect(harness.fillOf(order.order_id).attempts).toHaveLength(1);
    } finally {
      await proxy.stop();
    }
  }, 240_000);
});
