/**
 * Kraken's public ticker: `GET /0/public/Ticker?pair=XBTUSD` →
 * `{"error":[],"result":{"XXBTZUSD":{"c":["<last trade price>","<lot volume>"],…}}}`. Kraken answers
 * under its own name of the pair (XBTUSD → XXBTZUSD), so the one entry of `result` is taken.
 */
import { z } from "zod";
import type { ExchangeConfig } from "../../config/types.js";
import { getJson } from "./http-json.js";
import { PriceFetchError, type PriceFetcher } from "./observation.js";
import { describeIssues, priceText } from "./price-text.js";

const tickerSchema = z.object({
  error: z.array(z.string()),
  result: z.record(z.string(), z.object({ c: z.tuple([priceText], z.string()) })).optional(),
});

export function krakenTicker(exchange: ExchangeConfig, pair: string, now = Date.now): PriceFetcher {
  const label = `kraken ${pair}`;
  const url = `${exchange.baseUrl}/0/public/Ticker?pair=${encodeURIComponent(pair)}`;
  return {
    key: `kraken:${pair}`,
    label,
    fetch: async () => {
      const parsed = tickerSchema.safeParse(await getJson(url, exchange.timeoutMs, label));
      if (!parsed.success) throw new PriceFetchError(label, describeIssues(parsed.error));
      const { error, result } = parsed.data;
      if (error.length > 0) throw new PriceFetchError(label, `kraken says: ${error.join("; ")}`);
      const entries = Object.values(result ?? {});
      const ticker = entries[0];
      if (entries.length !== 1 || ticker === undefined) {
        throw new PriceFetchError(label, `expected one pair in the answer, got ${entries.length}`);
      }
      return { price: ticker.c[0], atMs: now() };
    },
  };
}
