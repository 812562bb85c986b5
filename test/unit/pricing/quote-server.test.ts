import { connect, type Socket } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope, QuoteItem } from "../../../src/orderbook/types.js";
import { createPricing, type PricingConfig } from "../../../src/pricing/pricing.js";
import { startQuoteServer, type QuoteOutcome, type QuoteServer } from "../../../src/pricing/quote-server.js";
import { kernelListenQueueCap } from "../../../src/util/listen.js";
import { acceptQueueOf } from "../../support/accept-queue.js";
import { BTC, ETH, MemoryBalances, NO_LIVE_PRICES, PRICES, SOLVER_ID, USDC, strategy } from "./fixtures.js";
import { chainsOf } from "../../support/coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../../support/network-fees.js";

const config: PricingConfig = {
  solver: { id: SOLVER_ID },
  chains: chainsOf(USDC, ETH, BTC),
  fixedPrices: PRICES,
  prices: NO_LIVE_PRICES,
  inventoryCurves: {},
  strategies: [strategy(BTC, USDC, { feeBps: 30, spreadBps: 20, fixedFee: 1_500_000n, minAmount: 10_000n })],
  limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
  networkFees: NO_MIN_PROFIT,
};

const logger = pino({ level: "silent" });
const observed: { outcome: QuoteOutcome; seconds: number }[] = [];
const observe = (outcome: QuoteOutcome, seconds: number) => observed.push({ outcome, seconds });
let server: QuoteServer;
let failing: QuoteServer;

beforeAll(async () => {
  const pricing = createPricing(config, {
    balances: new MemoryBalances(new Map([[USDC.id, 10n ** 12n]])),
    committed: () => 0n,
    ...freeNetworkIo(config.chains),
  });
  await pricing.start();
  server = await startQuoteServer({ host: "127.0.0.1", port: 0, quote: pricing.quote, logger, observe });
  failing = await startQuoteServer({
    host: "127.0.0.1",
    port: 0,
    quote: () => Promise.reject(new Error("boom")),
    logger,
    observe,
  });
});

afterAll(async () => {
  await server?.stop();
  await failing?.stop();
});

async function get(base: string, path: string, init?: RequestInit) {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: (await response.json()) as Envelope<QuoteItem | string> };
}

/** A kept-alive connection that has just been answered GET /health, now idle. */
function idleSocketAfterHealth(server: QuoteServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1", () => {
      socket.write("GET /health HTTP/1.1\r\nhost: localhost\r\nconnection: keep-alive\r\n\r\n");
    });
    socket.once("data", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Milliseconds until the server closed `socket`; fails when it is still open after `limitMs`. */
async function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connection still open after ${limitMs} ms`)), limitMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return performance.now() - started;
}

/** A solver with little room: each request below meets one refusal that has figures behind it. */
const narrow: PricingConfig = {
  ...config,
  // ETH first: the fixtures' assets are all "native", and the first one is its chain's fee coin.
  chains: chainsOf(ETH, USDC, BTC),
  strategies: [
    strategy(BTC, USDC, { minAmount: 10_000n, maxAmount: 10n ** 10n }),
    strategy(USDC, BTC, { minAmount: 1n, maxAmount: 10n ** 15n }),
  ],
  limits: {
    maxOrderAmount: { [BTC.id]: 5n * 10n ** 9n },
    // The fee coin of the USDC chain below its floor; BTC is its own chain's coin.
    inventoryFloor: { [USDC.id]: 10n ** 9n, [ETH.id]: 10n ** 18n },
    maxInFlightUsdCents: 5_000_000n,
  },
};

describe("quote refusals over HTTP", () => {
  const lines: Record<string, unknown>[] = [];
  const capturing = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const reasons: (string | undefined)[] = [];
  let narrowServer: QuoteServer;

  beforeAll(async () => {
    const pricing = createPricing(narrow, {
      balances: new MemoryBalances(
        new Map([
          [USDC.id, 10n ** 12n],
          [ETH.id, 10n ** 17n],
          [BTC.id, 10n ** 10n],
        ]),
      ),
      committed: () => 0n,
      ...freeNetworkIo(narrow.chains),
    });
    await pricing.start();
    narrowServer = await startQuoteServer({
      host: "127.0.0.1",
      port: 0,
      quote: pricing.quote,
      logger: capturing,
      observe: (_outcome, _seconds, reason) => reasons.push(reason),
    });
  });
  afterAll(() => narrowServer?.stop());

  it.each([
    ["below_min", BTC, USDC, "9999", "the amount is below this pair's minimum"],
    ["above_max", BTC, USDC, "20000000000", "the amount is above this pair's maximum"],
    ["above_order_limit", BTC, USDC, "6000000000", "the amount is above this solver's per-order limit"],
    ["insufficient_inventory", BTC, USDC, "2000000000", "this solver cannot fill this amount now"],
    ["insufficient_gas", BTC, USDC, "100000000", "this solver cannot pay the destination chain's fees now"],
    ["exposure_limit", USDC, BTC, "100000000000", "this solver takes on no more open fills now"],
  ])(
    "says %s without a figure of the solver, and logs the detail",
    async (reason, from, to, amount, text) => {
      lines.length = 0;
      reasons.length = 0;
      const answer = await get(narrowServer.url, `/quote?from=${from.id}&to=${to.id}&from_amount=${amount}`);
      expect(answer).toEqual({ status: 422, body: { status: "Error", error: `${reason}: ${text}` } });
      expect(text).not.toMatch(/[0-9]/);
      expect(reasons).toEqual([reason]);
      const logged = lines.find((line) => line.msg === "quote refused");
      expect(logged).toMatchObject({ reason });
      // The solver's own log keeps what the caller is not told.
      expect(String(logged?.detail)).toMatch(/[0-9]/);
    },
  );
});

describe("quote server over HTTP", () => {
  it("answers /health", async () => {
    expect(await get(server.url, "/health")).toEqual({
      status: 200,
      body: { status: "Ok", result: "online" },
    });
  });

  it("answers a quote with the quote item", async () => {
    const { status, body } = await get(
      server.url,
      `/quote?from=${BTC.id}&to=${USDC.id}&from_amount=100000000`,
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "Ok",
      result: {
        source: { asset: BTC.id, amount: "100000000", display: "1", value: "65000.25" },
        destination: { asset: USDC.id, amount: "64674138751", display: "64674.138751", value: "64674.13" },
        solver_id: SOLVER_ID,
        estimated_time: 600,
        slippage: 20,
        fee: 30,
        fixed_fee: "1.5",
      },
    });
  });

  it("answers 400 naming every bad parameter", async () => {
    const missing = await get(server.url, "/quote");
    expect(missing.status).toBe(400);
    expect(missing.body.status).toBe("Error");
    if (missing.body.status === "Error") {
      expect(missing.body.error).toMatch(/from is required.*to is required.*from_amount is required/);
    }
    const bad = await get(server.url, `/quote?from=bitcoin&to=${USDC.id}&from_amount=1.5`);
    expect(bad.status).toBe(400);
    if (bad.body.status === "Error") {
      expect(bad.body.error).toMatch(/from must be an asset id <chain>:<asset>, got "bitcoin"/);
      expect(bad.body.error).toMatch(/from_amount must be a positive integer in smallest units, got "1.5"/);
      expect(bad.body.error).not.toMatch(/\bto must/);
    }
    expect((await get(server.url, `/quote?from=${BTC.id}&to=${USDC.id}&from_amount=0`)).status).toBe(400);
  });

  it("answers 422 naming the refusal", async () => {
    const below = await get(server.url, `/quote?from=${BTC.id}&to=${USDC.id}&from_amount=9999`);
    expect(below).toMatchObject({ status: 422, body: { status: "Error" } });
    if (below.body.status === "Error") expect(below.body.error).toMatch(/^below_min: /);
    const noPair = await get(server.url, `/quote?from=${USDC.id}&to=${BTC.id}&from_amount=1000000`);
    expect(noPair.status).toBe(422);
    if (noPair.body.status === "Error") expect(noPair.body.error).toMatch(/^no_strategy: /);
  });

  it("answers 404, 405 and 500 with the error envelope", async () => {
    expect(await get(server.url, "/v2/quote")).toMatchObject({ status: 404, body: { status: "Error" } });
    expect(await get(server.url, "/quote", { method: "POST" })).toMatchObject({ status: 405 });
    const crashed = await get(failing.url, `/quote?from=${BTC.id}&to=${USDC.id}&from_amount=1`);
    expect(crashed).toEqual({
      status: 500,
      body: { status: "Error", error: "internal error while quoting; see the solver's log" },
    });
  });

  it("tells its observer how each quote ended and how long the handler took", async () => {
    observed.length = 0;
    const quote = (amount: string) => `/quote?from=${BTC.id}&to=${USDC.id}&from_amount=${amount}`;
    await get(server.url, quote("100000000"));
    await get(server.url, quote("9999"));
    await get(server.url, quote("abc"));
    await get(failing.url, quote("1"));
    await get(server.url, "/health");
    expect(observed.map((o) => o.outcome)).toEqual(["given", "refused", "bad_request", "error"]);
    for (const { seconds } of observed) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it("keeps an idle connection open for the configured time, then closes it", async () => {
    const quote = () => Promise.reject(new Error("not asked"));
    const brief = await startQuoteServer({
      host: "127.0.0.1",
      port: 0,
      keepAliveTimeoutMs: 150,
      quote,
      logger,
    });
    const lasting = await startQuoteServer({ host: "127.0.0.1", port: 0, quote, logger });
    try {
      const [briefSocket, lastingSocket] = await Promise.all([
        idleSocketAfterHealth(brief),
        idleSocketAfterHealth(lasting),
      ]);
      const briefClosedAfterMs = await closedWithin(briefSocket, 4_000);
      // Node's own 5 s would close it only after the 4 s limit; the 95 s default keeps the other open.
      expect(briefClosedAfterMs).toBeGreaterThanOrEqual(100);
      expect(lastingSocket.closed).toBe(false);
      lastingSocket.destroy();
    } finally {
      await brief.stop();
      await lasting.stop();
    }
  });

  it("listens with the configured accept queue and warns when the kernel caps it lower", async () => {
    const cap = kernelListenQueueCap();
    if (cap === null) throw new Error("this test reads net.core.somaxconn from /proc");
    const lines: string[] = [];
    const capturing = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const quote = () => Promise.reject(new Error("not asked"));
    const fitting = await startQuoteServer({
      host: "127.0.0.1",
      port: 0,
      listenBacklog: 1000,
      quote,
      logger: capturing,
    });
    const beyond = await startQuoteServer({
      host: "127.0.0.1",
      port: 0,
      listenBacklog: cap + 1,
      quote,
      logger: capturing,
    });
    try {
      expect(acceptQueueOf(Number(new URL(fitting.url).port))).toBe(Math.min(1000, cap));
      const warnings = lines
        .map((l) => JSON.parse(l) as { level: number; somaxconn?: number; listenBacklog?: number })
        .filter((l) => l.level === 40);
      expect(warnings).toEqual([expect.objectContaining({ somaxconn: cap, listenBacklog: cap + 1 })]);
    } finally {
      await fitting.stop();
      await beyond.stop();
    }
  });
});
