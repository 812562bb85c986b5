import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeConfig } from "../../../../src/config/types.js";
import { startTickerServer, type TickerServer } from "@htlc-solver/localnet/ticker-server.js";
import { binanceTicker } from "../../../../src/pricing/live/binance.js";
import { coinbaseSpot } from "../../../../src/pricing/live/coinbase.js";
import { krakenTicker } from "../../../../src/pricing/live/kraken.js";
import { PriceFetchError } from "../../../../src/pricing/live/observation.js";

const NOW = 1_700_000_000_000;
const now = () => NOW;
let tickers: TickerServer;
/** Answers each path with a fixed raw body, to feed the adapters malformed answers. */
let raw: Server;
let rawUrl: string;
const rawBodies = new Map<string, { status: number; body: string; delayMs?: number }>();

const exchange = (baseUrl: string, timeoutMs = 2_000): ExchangeConfig => ({
  baseUrl,
  timeoutMs,
  maxAgeMs: 60_000,
});

beforeAll(async () => {
  tickers = await startTickerServer({ BTC: "60000.12", ETH: "3000.5" });
  raw = createServer((request, response) => {
    const answer = rawBodies.get(new URL(request.url ?? "/", "http://x").pathname);
    const send = () => {
      response.writeHead(answer?.status ?? 404, { "content-type": "application/json" });
      response.end(answer?.body ?? "{}");
    };
    if (answer?.delayMs !== undefined) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", () => resolve()));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await tickers.stop();
  raw.closeAllConnections();
  await new Promise((resolve) => raw.close(resolve));
});

describe("exchange tickers against their response shapes", () => {
  it("reads Binance's ticker price as the exact decimal string", async () => {
    const fetcher = binanceTicker(exchange(tickers.url), "BTCUSDT", now);
    expect(fetcher.key).toBe("binance:BTCUSDT");
    await expect(fetcher.fetch()).resolves.toEqual({ price: "60000.12", atMs: NOW });
  });

  it("reads Coinbase's spot amount", async () => {
    await expect(coinbaseSpot(exchange(tickers.url), "ETH-USD", now).fetch()).resolves.toEqual({
      price: "3000.5",
      atMs: NOW,
    });
  });

  it("reads Kraken's last trade under its own pair name (XBTUSD answers as XXBTZUSD)", async () => {
    await expect(krakenTicker(exchange(tickers.url), "XBTUSD", now).fetch()).resolves.toEqual({
      price: "60000.12",
      atMs: NOW,
    });
  });

  it("names an unknown market with the exchange's own error", async () => {
    await expect(binanceTicker(exchange(tickers.url), "DOGEUSDT").fetch()).rejects.toThrow(
      /binance DOGEUSDT: HTTP 400: .*Invalid symbol/,
    );
    await expect(krakenTicker(exchange(tickers.url), "DOGEUSD").fetch()).rejects.toThrow(
      /kraken DOGEUSD: kraken says: EQuery:Unknown asset pair/,
    );
    await expect(coinbaseSpot(exchange(tickers.url), "DOGE-USD").fetch()).rejects.toThrow(/HTTP 404/);
  });
});

describe("exchange tickers refuse what they cannot use exactly", () => {
  it("refuses a price sent as a JSON number instead of reading it through a float", async () => {
    rawBodies.set("/api/v3/ticker/price", { status: 200, body: '{"symbol":"BTCUSDT","price":60000.12}' });
    const error = await binanceTicker(exchange(rawUrl), "BTCUSDT")
      .fetch()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PriceFetchError);
    expect((error as Error).message).toMatch(
      /price: must be a decimal string \(a JSON number would lose precision\)/,
    );
  });

  it("refuses exponents, negative and zero prices", async () => {
    for (const price of ['"6e4"', '"-1"', '"0.000"']) {
      rawBodies.set("/v2/prices/BTC-USD/spot", {
        status: 200,
        body: `{"data":{"base":"BTC","currency":"USD","amount":${price}}}`,
      });
      await expect(coinbaseSpot(exchange(rawUrl), "BTC-USD").fetch()).rejects.toThrow(
        /data\.amount: must be/,
      );
    }
  });

  it("refuses an answer for another market than the one asked", async () => {
    rawBodies.set("/api/v3/ticker/price", { status: 200, body: '{"symbol":"ETHUSDT","price":"3000"}' });
    await expect(binanceTicker(exchange(rawUrl), "BTCUSDT").fetch()).rejects.toThrow(
      /answered for "ETHUSDT"/,
    );
    rawBodies.set("/v2/prices/BTC-USD/spot", {
      status: 200,
      body: '{"data":{"base":"BTC","currency":"EUR","amount":"55000"}}',
    });
    await expect(coinbaseSpot(exchange(rawUrl), "BTC-USD").fetch()).rejects.toThrow(/answered for BTC-EUR/);
  });

  it("refuses a Kraken answer with no pair or several", async () => {
    rawBodies.set("/0/public/Ticker", { status: 200, body: '{"error":[],"result":{}}' });
    await expect(krakenTicker(exchange(rawUrl), "XBTUSD").fetch()).rejects.toThrow(
      /expected one pair.*got 0/,
    );
  });

  it("refuses what is not JSON, and gives up after its timeout", async () => {
    rawBodies.set("/api/v3/ticker/price", { status: 200, body: "<html>maintenance</html>" });
    await expect(binanceTicker(exchange(rawUrl), "BTCUSDT").fetch()).rejects.toThrow(/answer is not JSON/);
    rawBodies.set("/api/v3/ticker/price", {
      status: 200,
      body: '{"symbol":"BTCUSDT","price":"1"}',
      delayMs: 500,
    });
    await expect(binanceTicker(exchange(rawUrl, 50), "BTCUSDT").fetch()).rejects.toThrow(
      /no answer within 50 ms/,
    );
  });
});
