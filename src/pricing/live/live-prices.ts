/**
 * An asset's live price out of what its sources last said: the median of the fresh answers, through its
 * base when it is pegged, judged at the moment it is asked. The price book feeds it the answers it keeps
 * reading; the quote endpoint's thread feeds it the copy of those answers it is sent (quote-thread/).
 */
import type { AssetPriceConfig } from "../../config/types.js";
import { ratioToDecimal, type DecimalString, type Ratio } from "../decimal.js";
import { PriceUnavailableError, type LivePriceSource } from "../price-source.js";
import { aggregate, type Aggregated, type SourceReading } from "./aggregate.js";
import { applyPeg } from "./peg.js";

/** What each live-priced asset's sources last said, by asset id. */
export type ReadingsByAsset = Readonly<Record<string, readonly SourceReading[]>>;

const ONE_USD: Ratio = { num: 1n, den: 1n };

export class LivePrices implements LivePriceSource {
  constructor(
    /** `prices.assets`: each live-priced asset's sources, their rule and its peg. */
    private readonly assets: Readonly<Record<string, AssetPriceConfig>>,
    private readonly readingsOf: (assetId: string) => readonly SourceReading[],
    private readonly now: () => number,
  ) {}

  has(assetId: string): boolean {
    return Object.hasOwn(this.assets, assetId);
  }

  /** The asset's price now: its sources' median, through its base when it is pegged. */
  price(assetId: string): Aggregated {
    const config = Object.hasOwn(this.assets, assetId) ? this.assets[assetId] : undefined;
    if (config === undefined) {
      return { ok: false, reason: "price_unavailable", detail: "no live price sources in prices.assets" };
    }
    const own = aggregate(this.readingsOf(assetId), config, this.now());
    if (config.peg === null) return own;
    const base =
      config.peg.base === "usd"
        ? { ok: true as const, price: ONE_USD, used: [] }
        : this.price(config.peg.base);
    if (!base.ok) return { ...base, detail: `its base ${config.peg.base} has no price: ${base.detail}` };
    return applyPeg(own, base.price, config.peg);
  }

  async usdPrice(assetId: string): Promise<DecimalString> {
    const answer = this.price(assetId);
    if (!answer.ok) throw new PriceUnavailableError(assetId, answer.detail, answer.reason);
    return ratioToDecimal(answer.price);
  }
}
