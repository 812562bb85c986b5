/** What one live source said about a price, and the seam every source implements. */
import { redactUrlsInText } from "../../config/redact-url.js";
import type { DecimalString } from "../decimal.js";

export interface PriceObservation {
  /** USD per whole unit (or, for a ratio feed, units of the base per unit), exact. */
  price: DecimalString;
  /** When the price was true: the feed's `updatedAt`, or when an exchange answered. */
  atMs: number;
}

/** One network read of one price; the price book calls it in the background, never while quoting. */
export interface PriceFetcher {
  /** Identity shared by every asset that reads the same market (`binance:BTCUSDT`). */
  readonly key: string;
  /** For people: `binance BTCUSDT`, `chainlink ethereum 0x5f4e…`. */
  readonly label: string;
  fetch(): Promise<PriceObservation>;
}

/** A source answered with something the solver will not use, or did not answer. */
export class PriceFetchError extends Error {
  constructor(label: string, detail: string, options?: { cause?: unknown }) {
    // A source's reply may quote its URL, keys and all.
    super(`${label}: ${redactUrlsInText(detail)}`, options);
    this.name = "PriceFetchError";
  }
}
