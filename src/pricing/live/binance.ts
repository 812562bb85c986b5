/** Binance's public ticker: `GET /api/v3/ticker/price?symbol=BTCUSDT` → `{"symbol":"BTCUSDT","price":"…"}`. */
import { z } from "zod";
import type { ExchangeConfig } from "../../config/types.js";
import { getJson } from "./http-json.js";
import { PriceFetchError, type PriceFetcher } from "./observation.js";
import { describeIssues, priceText } from "./price-text.js";

const tickerSchema = z.object({ symbol: z.string(), price: priceText });

export function binanceTicker(exchange: ExchangeConfig, symbol: string, now = Date.now): PriceFetcher {
  const label = `binance ${symbol}`;
  const url = `${exchange.baseUrl}/api/v3/ticker/price?symbol=${encodeURIComponent(symbol)}`;
  return {
    key: `binance:${symbol}`,
    label,
    fetch: async () => {
      const parsed = tickerSchema.safeParse(await getJson(url, exchange.timeoutMs, label));
      if (!parsed.success) throw new PriceFetchError(label, describeIssues(parsed.error));
      if (parsed.data.symbol !== symbol) {
        throw new PriceFetchError(label, `answered for ${JSON.stringify(parsed.data.symbol)}`);
      }
      return { price: parsed.data.price, atMs: now() };
    },
  };
}
