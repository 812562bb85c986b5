/**
 * Coinbase's public spot price: `GET /v2/prices/BTC-USD/spot` →
 * `{"data":{"base":"BTC","currency":"USD","amount":"…"}}`.
 */
import { z } from "zod";
import type { ExchangeConfig } from "../../config/types.js";
import { getJson } from "./http-json.js";
import { PriceFetchError, type PriceFetcher } from "./observation.js";
import { describeIssues, priceText } from "./price-text.js";

const spotSchema = z.object({
  data: z.object({ base: z.string().optional(), currency: z.string(), amount: priceText }),
});

export function coinbaseSpot(exchange: ExchangeConfig, pair: string, now = Date.now): PriceFetcher {
  const label = `coinbase ${pair}`;
  const url = `${exchange.baseUrl}/v2/prices/${encodeURIComponent(pair)}/spot`;
  const [base, quote] = pair.split("-");
  return {
    key: `coinbase:${pair}`,
    label,
    fetch: async () => {
      const parsed = spotSchema.safeParse(await getJson(url, exchange.timeoutMs, label));
      if (!parsed.success) throw new PriceFetchError(label, describeIssues(parsed.error));
      const { data } = parsed.data;
      // The pair names what the amount means; an answer for another one is not this price.
      if (data.currency !== quote || (data.base !== undefined && data.base !== base)) {
        throw new PriceFetchError(label, `answered for ${data.base ?? "?"}-${data.currency}`);
      }
      return { price: data.amount, atMs: now() };
    },
  };
}
