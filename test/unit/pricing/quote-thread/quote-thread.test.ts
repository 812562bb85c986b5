/**
 * The quote endpoint on its own thread, through HTTP: it opens with the first snapshot, checks signatures
 * and limits, answers quotes and refusals as the endpoint always has, sees each new snapshot (a reload's
 * at once), refuses state_stale once the main thread stops sending them, reports its metrics to the main
 * thread's registry, is started again when it dies, and ends on stop().
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { SolverMetrics } from "../../../../src/ops/metrics.js";
import { createPricing, type Pricing } from "../../../../src/pricing/pricing.js";
import {
  startQuoteThread,
  type QuoteThread,
  type QuoteThreadOptions,
} from "../../../../src/pricing/quote-thread/quote-thread.js";
import { signQuoteRequest } from "../../../../src/pricing/quote-signature.js";
import { createLogger } from "../../../../src/util/logger.js";
import { chainsOf } from "../../../support/coin-chains.js";
import { BTC, ETH, MemoryBalances, NO_LIVE_PRICES, PRICES, SOLVER_ID, USDC, strategy } from "../fixtures.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../../../support/network-fees.js";

const SECRET = "c4".repeat(32);
const config = {
  solver: { id: SOLVER_ID },
  chains: chainsOf(USDC, ETH, BTC),
  fixedPrices: PRICES,
  prices: NO_LIVE_PRICES,
  inventoryCurves: {},
  strategies: [strategy(BTC, USDC, { maxAmount: 10n ** 10n }), strategy(USDC, BTC)],
  limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
  networkFees: NO_MIN_PROFIT,
};

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const part of running.splice(0).reverse()) await part.stop();
});

interface Setup {
  thread: QuoteThread;
  pricing: Pricing;
  balances: MemoryBalances;
  metrics: SolverMetrics;
  /** While set, the main thread takes no snapshot (it is stuck). */
  stuck: { value: boolean };
}

async function setup(overrides: Partial<QuoteThreadOptions> = {}): Promise<Setup> {
  const balances = new MemoryBalances(new Map([[USDC.id, 10n ** 12n]]));
  const pricing = createPricing(config, {
    balances,
    committed: () => 0n,
    balanceCacheMs: 0,
    ...freeNetworkIo(config.chains),
  });
  await pricing.start();
  running.push(pricing);
  const metrics = new SolverMetrics({ processMetrics: false });
  const stuck = { value: false };
  const thread = await startQuoteThread({
    endpoint: { host: "127.0.0.1", port: 0, auth: { secret: SECRET, maxClockSkewMs: 30_000 } },
    secretLengths: new Map([
      ["ethereum", 32],
      ["bitcoin", null],
    ]),
    allowUnenforcedSecretLength: true,
    snapshot: (waitMs) =>
      stuck.value ? Promise.reject(new Error("main thread stuck")) : pricing.quoteSnapshot(waitMs),
    metrics: (batch) => metrics.recordQuoteBatch(batch),
    logger: pino({ level: "silent" }),
    timing: { snapshotIntervalMs: 50, maxSnapshotAgeMs: 1_000, restartDelayMs: 100 },
    ...overrides,
  });
  running.push(thread);
  metrics.collectQuotesWith(() => thread.flushMetrics());
  return { thread, pricing, balances, metrics, stuck };
}

function quoteUrl(thread: QuoteThread, amount: bigint, from = BTC.id, to = USDC.id): URL {
  return new URL(`/quote?from=${from}&to=${to}&from_amount=${amount}`, thread.url);
}

async function ask(url: URL, signed = true) {
  const response = await fetch(url, { headers: signed ? signQuoteRequest(SECRET, url) : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the quote thread", () => {
  it("answers a signed quote, refuses an unsigned one 401 and a refusal 422 with its public text", async () => {
    const { thread } = await setup();
    const given = await ask(quoteUrl(thread, 100_000_000n));
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({
      status: "Ok",
      result: { destination: { asset: USDC.id, amount: "65000250000" }, solver_id: SOLVER_ID },
    });
    const unsigned = await ask(quoteUrl(thread, 100_000_000n), false);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toMatch(/^missing_signature: /);
    const tooBig = await ask(quoteUrl(thread, 10n ** 11n));
    expect(tooBig).toEqual({
      status: 422,
      body: { status: "Error", error: "above_max: the amount is above this pair's maximum" },
    });
  });

  it("turns away requests beyond a client's burst, 429", async () => {
    const { thread } = await setup({
      endpoint: {
        host: "127.0.0.1",
        port: 0,
        limits: { maxConcurrent: 16, perClientPerSecond: 1, perClientBurst: 2 },
      },
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask(quoteUrl(thread, 100_000_000n), false)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("quotes from each new snapshot: a balance that fell, then a reload's new strategy at once", async () => {
    const { thread, pricing, balances } = await setup({
      timing: { snapshotIntervalMs: 60_000, maxSnapshotAgeMs: 120_000 },
    });
    const url = quoteUrl(thread, 100_000_000n);
    expect((await ask(url)).status).toBe(200);
    balances.amounts.set(USDC.id, 1_000_000n);
    expect((await ask(url)).status).toBe(200);
    await thread.refresh();
    expect((await ask(url)).body.error).toMatch(/^insufficient_inventory: /);

    const eth = quoteUrl(thread, 10n ** 18n, ETH.id, USDC.id);
    expect((await ask(eth)).body.error).toMatch(/^no_strategy: /);
    await pricing.reload({ ...config, strategies: [...config.strategies, strategy(ETH, USDC)] });
    await thread.refresh();
    expect((await ask(eth)).body.error).toMatch(/^insufficient_inventory: /);
    balances.amounts.set(USDC.id, 10n ** 12n);
    await thread.refresh();
    expect((await ask(eth)).status).toBe(200);
  });

  it("refuses every quote state_stale once the main thread sends no snapshot, and quotes again when it does", async () => {
    const { thread, stuck } = await setup();
    const url = () => quoteUrl(thread, 100_000_000n);
    expect((await ask(url())).status).toBe(200);
    stuck.value = true;
    const stale = await until(
      () => ask(url()),
      (answer) => answer.status !== 200,
    );
    expect(stale).toEqual({
      status: 422,
      body: {
        status: "Error",
        error: "state_stale: this solver's prices and inventory are not fresh enough to quote now",
      },
    });
    stuck.value = false;
    const back = await until(
      () => ask(url()),
      (answer) => answer.status === 200,
    );
    expect(back.status).toBe(200);
  });

  it("refuses a pair whose destination does not enforce the source's secret length, unless allowed", async () => {
    const { thread } = await setup({ allowUnenforcedSecretLength: false });
    const answer = await ask(quoteUrl(thread, 1_000_000n, USDC.id, BTC.id));
    expect(answer.body.error).toMatch(/^secret_length_unenforced: /);
  });

  it("reports its counts and durations to the main thread's metrics", async () => {
    const { thread, metrics } = await setup({ timing: { metricsBatchMs: 60_000 } });
    await ask(quoteUrl(thread, 100_000_000n));
    await ask(quoteUrl(thread, 100_000_000n), false);
    await ask(quoteUrl(thread, 100_000_000n), false);
    const text = await metrics.metrics();
    expect(text).toMatch(/solver_quote_duration_seconds_count\{outcome="given"\} 1\n/);
    expect(text).toMatch(/solver_quote_duration_seconds_count\{outcome="unauthorized"\} 2\n/);
    expect(text).toContain(
      'solver_quote_rejections_total{outcome="unauthorized",reason="missing_signature"} 2',
    );
  });

  it("starts again on the same port when the thread dies", async () => {
    const { thread } = await setup();
    const url = quoteUrl(thread, 100_000_000n);
    const first = thread.thread;
    await first?.terminate();
    const back = await until(
      () => ask(url).catch(() => ({ status: 0, body: {} })),
      (answer) => answer.status === 200 && thread.thread !== null,
    );
    expect(back.status).toBe(200);
    expect(thread.thread).not.toBe(first);
  });

  it("writes its log lines to the main logger's file, with the main logger's bindings", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "quote-thread-")), "solver.log");
    const logger = createLogger({
      level: "debug",
      destination: pino.destination({ dest: file, sync: true }),
    });
    const { thread } = await setup({ logger: logger.child({ component: "solver" }) });
    await ask(quoteUrl(thread, 100_000_000n), false);
    const lines = await until(
      async () =>
        readFileSync(file, "utf8")
          .split("\n")
          .filter((line) => line.includes('"thread":"quote"')),
      (found) => found.some((line) => line.includes("quote request turned away")),
    );
    const turnedAway = lines.find((line) => line.includes("quote request turned away"));
    expect(JSON.parse(turnedAway ?? "{}")).toMatchObject({
      component: "solver",
      reason: "missing_signature",
    });
  });

  it("sends its log lines to a main logger that writes to a stream of its own, never to standard output", async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "debug",
      destination: { write: (line: string) => lines.push(line) },
    });
    const { thread } = await setup({ logger: logger.child({ component: "solver" }) });
    await ask(quoteUrl(thread, 100_000_000n), false);
    const turnedAway = await until(
      () => Promise.resolve(lines.find((line) => line.includes("quote request turned away"))),
      (found) => found !== undefined,
    );
    expect(JSON.parse(turnedAway ?? "{}")).toMatchObject({
      component: "solver",
      thread: "quote",
      reason: "missing_signature",
    });
  });

  it("closes the endpoint and ends the thread on stop()", async () => {
    const { thread } = await setup();
    const worker = thread.thread;
    const exited = new Promise<number>((resolve) => worker?.once("exit", resolve));
    await thread.stop();
    await exited;
    await expect(fetch(quoteUrl(thread, 1n))).rejects.toThrow();
  });
});
