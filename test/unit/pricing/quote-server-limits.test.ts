import { get as httpGet } from "node:http";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { QuoteItem } from "../../../src/orderbook/types.js";
import type { QuoteLimitSettings } from "../../../src/pricing/quote-guard.js";
import type { QuoteRequest } from "../../../src/pricing/quote.js";
import {
  startQuoteServer,
  type QuoteFunction,
  type QuoteOutcome,
  type QuoteServer,
} from "../../../src/pricing/quote-server.js";
import { signQuoteRequest } from "../../../src/pricing/quote-signature.js";
import { refuse } from "../../../src/pricing/refusal.js";

const SECRET = "r6".repeat(20);
const QUERY = "/quote?from=bitcoin:btc&to=ethereum:usdc&from_amount=1000";

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { status: string; error?: string };
}

/** A GET over a connection of its own, from `localAddress` (any 127.x address reaches a loopback server). */
function ask(url: URL, headers: Record<string, string> = {}, localAddress = "127.0.0.1"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, localAddress, agent: false }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => {
        const retryAfter = response.headers["retry-after"];
        resolve({ status: response.statusCode ?? 0, retryAfter, body: JSON.parse(text) as Answer["body"] });
      });
    });
    request.on("error", reject);
  });
}

const item = (request: QuoteRequest): QuoteItem => ({
  source: { asset: request.from, amount: request.fromAmount.toString(), display: "0", value: "0" },
  destination: { asset: request.to, amount: "1", display: "0", value: "0" },
  solver_id: "ab",
  estimated_time: 1,
  slippage: 0,
  fee: 0,
  fixed_fee: "0",
});

let servers: QuoteServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});

async function start(options: {
  limits: QuoteLimitSettings;
  quote?: QuoteFunction;
  auth?: boolean;
  clock?: { ms: number };
}) {
  const observed: { outcome: QuoteOutcome; reason: string | undefined }[] = [];
  const clock = options.clock ?? { ms: 0 };
  const server = await startQuoteServer({
    host: "127.0.0.1",
    port: 0,
    limits: options.limits,
    ...(options.auth === true ? { auth: { secret: SECRET, maxClockSkewMs: 30_000 } } : {}),
    quote: options.quote ?? (async (request) => item(request)),
    logger: pino({ level: "silent" }),
    observe: (outcome, _seconds, reason) => observed.push({ outcome, reason }),
    monotonicNow: () => clock.ms,
  });
  servers.push(server);
  return { server, url: new URL(QUERY, server.url), observed, clock };
}

const roomy = { maxConcurrent: 100, perClientPerSecond: 1000, perClientBurst: 1000 };

describe("the quote endpoint's rate limit per client", () => {
  it("answers a burst, then 429 with Retry-After at once, then one more per token earned", async () => {
    const { url, observed, clock } = await start({
      limits: { ...roomy, perClientPerSecond: 2, perClientBurst: 3 },
    });
    for (let i = 0; i < 3; i++) expect((await ask(url)).status).toBe(200);
    const limited = await ask(url);
    expect(limited).toMatchObject({ status: 429, retryAfter: "1" });
    expect(limited.body.error).toMatch(/^rate_limited: /);
    expect(observed.at(-1)).toEqual({ outcome: "rate_limited", reason: "rate_limited" });
    clock.ms += 500;
    expect((await ask(url)).status).toBe(200);
    expect((await ask(url)).status).toBe(429);
  });

  it("keeps a bucket per remote address when requests are not signed", async () => {
    const { url } = await start({ limits: { ...roomy, perClientPerSecond: 1, perClientBurst: 2 } });
    for (let i = 0; i < 2; i++) expect((await ask(url, {}, "127.0.0.2")).status).toBe(200);
    expect((await ask(url, {}, "127.0.0.2")).status).toBe(429);
    expect((await ask(url, {}, "127.0.0.3")).status).toBe(200);
  });

  it("keeps one bucket for the holder of the secret, which unsigned requests cannot drain", async () => {
    const { url } = await start({
      auth: true,
      limits: { ...roomy, perClientPerSecond: 1, perClientBurst: 2 },
    });
    for (let i = 0; i < 5; i++) expect((await ask(url)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await ask(url, signQuoteRequest(SECRET, url))).status).toBe(200);
    // From another address, still the same client.
    const turned = signQuoteRequest(SECRET, url);
    expect((await ask(url, turned, "127.0.0.4")).status).toBe(429);
  });

  it("does not use up the nonce of a request it turned away: sent again as it was, it is answered", async () => {
    const { url, clock } = await start({
      auth: true,
      limits: { ...roomy, perClientPerSecond: 1, perClientBurst: 1 },
    });
    expect((await ask(url, signQuoteRequest(SECRET, url))).status).toBe(200);
    const turned = signQuoteRequest(SECRET, url);
    expect((await ask(url, turned)).status).toBe(429);
    clock.ms += 1000;
    expect((await ask(url, turned)).status).toBe(200);
    expect((await ask(url, turned)).body.error).toMatch(/^replayed_nonce: /);
  });
});

describe("the quote endpoint's bound on quotes priced at once", () => {
  it("turns away a request beyond it at once with 429, and takes requests again once quotes finish", async () => {
    const waiting: (() => void)[] = [];
    const slow: QuoteFunction = (request) =>
      new Promise((resolve) => waiting.push(() => resolve(item(request))));
    const { url, observed } = await start({ limits: { ...roomy, maxConcurrent: 2 }, quote: slow });
    const first = ask(url);
    const second = ask(url);
    await expect.poll(() => waiting.length).toBe(2);
    const busy = await ask(url);
    expect(busy).toMatchObject({ status: 429, retryAfter: "1" });
    expect(busy.body.error).toMatch(/^busy: /);
    expect(observed).toEqual([{ outcome: "busy", reason: "busy" }]);
    for (const release of waiting.splice(0)) release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const third = ask(url);
    await expect.poll(() => waiting.length).toBe(1);
    waiting.pop()?.();
    expect((await third).status).toBe(200);
  });

  it("frees the place of a quote that failed or was refused", async () => {
    let calls = 0;
    const flaky: QuoteFunction = async (request) => {
      calls += 1;
      if (calls === 1) throw new Error("boom");
      if (calls === 2) return refuse("no_strategy", "not this pair");
      return item(request);
    };
    const { url } = await start({ limits: { ...roomy, maxConcurrent: 1 }, quote: flaky });
    expect((await ask(url)).status).toBe(500);
    expect((await ask(url)).status).toBe(422);
    expect((await ask(url)).status).toBe(200);
  });
});
