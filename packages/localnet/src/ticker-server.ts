/**
 * A local stand-in for three exchanges' public ticker endpoints, in their response shapes, so the
 * localnet and the tests price from "exchanges" without reaching outside the machine:
 *   Binance  GET /api/v3/ticker/price?symbol=BTCUSDT  → {"symbol":"BTCUSDT","price":"60000.00"}
 *   Coinbase GET /v2/prices/BTC-USD/spot               → {"data":{"base":"BTC","currency":"USD","amount":"60000.00"}}
 *   Kraken   GET /0/public/Ticker?pair=XBTUSD          → {"error":[],"result":{"XXBTZUSD":{"c":["60000.00","0.001"],…}}}
 * Prices are kept per base currency (BTC, ETH, …) and may be set per exchange, to make them disagree.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { listen } from "htlc-solver/util/listen.js";

export type TickerExchange = "binance" | "coinbase" | "kraken";
export const TICKER_EXCHANGES: readonly TickerExchange[] = ["binance", "coinbase", "kraken"];

export interface TickerServer {
  /** Base URL of all three exchanges' APIs. */
  url: string;
  /** Sets a base currency's USD price on every exchange, or on one. */
  set(base: string, price: string, exchange?: TickerExchange): void;
  /** Makes one exchange answer 503 for a base currency (null: answer again). */
  fail(exchange: TickerExchange, base: string, failing: boolean): void;
  /** Requests served, per exchange. */
  readonly requests: Record<TickerExchange, number>;
  stop(): Promise<void>;
}

/** Kraken names BTC "XBT" and the main crypto/fiat pairs with X/Z prefixes (XBTUSD → XXBTZUSD). */
export function krakenPairName(base: string): { request: string; answer: string } {
  const code = base === "BTC" ? "XBT" : base;
  const prefixed = code === "XBT" || code === "ETH";
  return { request: `${code}USD`, answer: prefixed ? `X${code}ZUSD` : `${code}USD` };
}

function krakenBase(pair: string): string | null {
  const match = /^(?:X?(XBT|ETH)Z?|([A-Z0-9]+?))USD$/.exec(pair);
  const code = match?.[1] ?? match?.[2];
  if (code === undefined) return null;
  return code === "XBT" ? "BTC" : code;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

export async function startTickerServer(
  initial: Record<string, string>,
  options: { host?: string; port?: number } = {},
): Promise<TickerServer> {
  const prices = new Map<string, string>();
  const failing = new Set<string>();
  for (const exchange of TICKER_EXCHANGES) {
    for (const [base, price] of Object.entries(initial)) prices.set(`${exchange}:${base}`, price);
  }
  const requests: Record<TickerExchange, number> = { binance: 0, coinbase: 0, kraken: 0 };
  const priceOf = (exchange: TickerExchange, base: string | null) =>
    base === null || failing.has(`${exchange}:${base}`) ? undefined : prices.get(`${exchange}:${base}`);
  const unavailable = (exchange: TickerExchange, base: string | null) =>
    base !== null && failing.has(`${exchange}:${base}`);

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/api/v3/ticker/price") {
      requests.binance += 1;
      const symbol = url.searchParams.get("symbol") ?? "";
      const base = symbol.endsWith("USDT") ? symbol.slice(0, -4) : null;
      if (unavailable("binance", base)) return json(response, 503, { code: -1001, msg: "Internal error." });
      const price = priceOf("binance", base);
      if (price === undefined) return json(response, 400, { code: -1121, msg: "Invalid symbol." });
      return json(response, 200, { symbol, price });
    }
    const coinbase = /^\/v2\/prices\/([A-Z0-9]+)-USD\/spot$/.exec(url.pathname);
    if (coinbase !== null) {
      requests.coinbase += 1;
      const base = coinbase[1] ?? null;
      if (unavailable("coinbase", base)) return json(response, 503, { errors: [{ id: "unavailable" }] });
      const price = priceOf("coinbase", base);
      if (price === undefined)
        return json(response, 404, { errors: [{ id: "not_found", message: "Invalid currency" }] });
      return json(response, 200, { data: { base, currency: "USD", amount: price } });
    }
    if (url.pathname === "/0/public/Ticker") {
      requests.kraken += 1;
      const base = krakenBase(url.searchParams.get("pair") ?? "");
      if (unavailable("kraken", base)) return json(response, 503, { error: ["EService:Unavailable"] });
      const price = priceOf("kraken", base);
      if (price === undefined || base === null)
        return json(response, 200, { error: ["EQuery:Unknown asset pair"] });
      const ticker = { a: [price, "1", "1.000"], b: [price, "1", "1.000"], c: [price, "0.00100000"] };
      return json(response, 200, { error: [], result: { [krakenPairName(base).answer]: ticker } });
    }
    json(response, 404, { error: `no route ${url.pathname}` });
  };

  const server = createServer(handle);
  await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    requests,
    set: (base, price, exchange) => {
      for (const name of exchange === undefined ? TICKER_EXCHANGES : [exchange])
        prices.set(`${name}:${base}`, price);
    },
    fail: (exchange, base, on) => {
      if (on) failing.add(`${exchange}:${base}`);
      else failing.delete(`${exchange}:${base}`);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
