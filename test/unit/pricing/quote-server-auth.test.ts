import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Envelope, QuoteItem } from "../../../src/orderbook/types.js";
import { createPricing, type PricingConfig } from "../../../src/pricing/pricing.js";
import { startQuoteServer, type QuoteOutcome, type QuoteServer } from "../../../src/pricing/quote-server.js";
import { SIGNATURE_HEADERS, signQuoteRequest } from "../../../src/pricing/quote-signature.js";
import { BTC, ETH, MemoryBalances, NO_LIVE_PRICES, PRICES, SOLVER_ID, USDC, strategy } from "./fixtures.js";
import { chainsOf } from "../../support/coin-chains.js";
import { freeNetworkIo, NO_MIN_PROFIT } from "../../support/network-fees.js";

const SECRET = "s3".repeat(20);
const SKEW_MS = 30_000;

const config: PricingConfig = {
  solver: { id: SOLVER_ID },
  chains: chainsOf(USDC, ETH, BTC),
  fixedPrices: PRICES,
  prices: NO_LIVE_PRICES,
  inventoryCurves: {},
  strategies: [strategy(BTC, USDC)],
  limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
  networkFees: NO_MIN_PROFIT,
};

let clock = 1_900_000_000_000;
const observed: { outcome: QuoteOutcome; reason: string | undefined }[] = [];
let server: QuoteServer;

beforeAll(async () => {
  const pricing = createPricing(config, {
    balances: new MemoryBalances(new Map([[USDC.id, 10n ** 12n]])),
    committed: () => 0n,
    ...freeNetworkIo(config.chains),
  });
  await pricing.start();
  server = await startQuoteServer({
    host: "127.0.0.1",
    port: 0,
    auth: { secret: SECRET, maxClockSkewMs: SKEW_MS },
    quote: pricing.quote,
    logger: pino({ level: "silent" }),
    observe: (outcome, _seconds, reason) => observed.push({ outcome, reason }),
    now: () => clock,
  });
});

afterAll(() => server?.stop());

beforeEach(() => {
  observed.length = 0;
});

function quoteUrl(amount = "100000000"): URL {
  return new URL(`/quote?from=${BTC.id}&to=${USDC.id}&from_amount=${amount}`, server.url);
}

async function get(url: URL, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    authenticate: response.headers.get("www-authenticate"),
    body: (await response.json()) as Envelope<QuoteItem | string>,
  };
}

function errorOf(answer: { body: Envelope<QuoteItem | string> }): string {
  return answer.body.status === "Error" ? answer.body.error : "";
}

describe("a quote endpoint that requires signed requests", () => {
  it("answers a request signed with its secret", async () => {
    const url = quoteUrl();
    const answer = await get(url, signQuoteRequest(SECRET, url, { nowMs: clock }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "Ok", result: { destination: { asset: USDC.id } } });
    expect(observed).toEqual([{ outcome: "given", reason: undefined }]);
  });

  it("answers an unsigned request 401 with the reason and the scheme, and counts it", async () => {
    const answer = await get(quoteUrl());
    expect(answer.status).toBe(401);
    expect(answer.authenticate).toBe("Solver-HMAC-SHA256");
    expect(errorOf(answer)).toMatch(/^missing_signature: /);
    expect(observed).toEqual([{ outcome: "unauthorized", reason: "missing_signature" }]);
  });

  it("refuses a request signed with another secret, and one changed after it was signed", async () => {
    const url = quoteUrl();
    const wrong = await get(url, signQuoteRequest("x9".repeat(20), url, { nowMs: clock }));
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong)).toBe("bad_signature: the signature does not match the request");
    // Signed for 1 BTC, sent for 100.
    const signed = signQuoteRequest(SECRET, url, { nowMs: clock });
    const tampered = await get(quoteUrl("10000000000"), signed);
    expect(tampered.status).toBe(401);
    expect(errorOf(tampered)).toMatch(/^bad_signature: /);
    expect(observed.map((o) => o.reason)).toEqual(["bad_signature", "bad_signature"]);
  });

  it("refuses a timestamp beyond the allowed skew, either way, and accepts one at its edge", async () => {
    const url = quoteUrl();
    for (const offset of [-(SKEW_MS + 1), SKEW_MS + 1]) {
      const answer = await get(url, signQuoteRequest(SECRET, url, { nowMs: clock + offset }));
      expect(answer.status).toBe(401);
      expect(errorOf(answer)).toMatch(/^stale_timestamp: the timestamp is 30001 ms from the solver's clock/);
    }
    const edge = await get(url, signQuoteRequest(SECRET, url, { nowMs: clock - SKEW_MS }));
    expect(edge.status).toBe(200);
  });

  it("answers a signed request once: the same nonce again is a replay, even much later", async () => {
    const url = quoteUrl();
    const headers = signQuoteRequest(SECRET, url, { nowMs: clock });
    expect((await get(url, headers)).status).toBe(200);
    const replayed = await get(url, headers);
    expect(replayed.status).toBe(401);
    expect(errorOf(replayed)).toBe("replayed_nonce: this nonce was used before");
    // Once the nonce is forgotten, its timestamp is too old to pass.
    clock += 3 * SKEW_MS;
    const late = await get(url, headers);
    expect(errorOf(late)).toMatch(/^stale_timestamp: /);
    // A fresh nonce for the same query is a new request.
    expect((await get(url, signQuoteRequest(SECRET, url, { nowMs: clock }))).status).toBe(200);
  });

  it("refuses malformed signature headers, naming the expected forms", async () => {
    const url = quoteUrl();
    const signed = signQuoteRequest(SECRET, url, { nowMs: clock });
    const brokenHeaders: Record<string, string>[] = [
      { ...signed, [SIGNATURE_HEADERS.nonce]: "short" },
      { ...signed, [SIGNATURE_HEADERS.timestamp]: "yesterday" },
      { [SIGNATURE_HEADERS.signature]: signed[SIGNATURE_HEADERS.signature] ?? "" },
    ];
    for (const broken of brokenHeaders) {
      const answer = await get(url, broken);
      expect(answer.status).toBe(401);
      expect(errorOf(answer)).toMatch(/^malformed_signature: /);
    }
  });

  it("keeps /health open", async () => {
    expect((await get(new URL("/health", server.url))).status).toBe(200);
  });
});
