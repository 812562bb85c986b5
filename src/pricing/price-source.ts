import { parseDecimal, type DecimalString, type Ratio } from "./decimal.js";

/** Where the solver learns what an asset is worth: USD per whole unit, as an exact decimal string. */
export interface PriceSource {
  usdPrice(assetId: string): Promise<DecimalString>;
}

/** Why a price cannot be used; each is a refusal reason of its own (see refusal.ts). */
export type PriceRefusalReason =
  "price_unavailable" | "price_stale" | "price_sources_disagree" | "price_depegged";

export class PriceUnavailableError extends Error {
  constructor(
    readonly assetId: string,
    detail: string,
    readonly reason: PriceRefusalReason = "price_unavailable",
  ) {
    super(`no usable USD price for ${assetId}: ${detail}`);
    this.name = "PriceUnavailableError";
  }
}

/** Live prices, which know the assets they price (those `prices.assets` lists). */
export interface LivePriceSource extends PriceSource {
  has(assetId: string): boolean;
}

/**
 * Every price the solver uses: by a strategy's `priceSource` (`fixed` or `live`), and per asset (live
 * where `prices.assets` lists it, else fixed) for what is not a quote: exposure and profit and loss.
 */
export interface PriceSources {
  fixed: PriceSource;
  live: PriceSource;
  byAsset: PriceSource;
}

/** Parses a price and insists it is positive; a zero price would divide by zero or give assets away. */
function positivePrice(assetId: string, price: DecimalString): Ratio {
  let ratio: Ratio;
  try {
    ratio = parseDecimal(price, `USD price of ${assetId}`);
  } catch (error) {
    throw new PriceUnavailableError(assetId, (error as Error).message);
  }
  if (ratio.num === 0n) throw new PriceUnavailableError(assetId, "price is zero");
  return ratio;
}

/**
 * Prices fixed by the operator in `config.fixedPrices`. Each price is validated when it is read so that one
 * malformed entry refuses quotes for its own asset only.
 */
export class FixedPriceSource implements PriceSource {
  constructor(private readonly prices: Readonly<Record<string, DecimalString>>) {}

  async usdPrice(assetId: string): Promise<DecimalString> {
    const price = this.prices[assetId];
    if (price === undefined) throw new PriceUnavailableError(assetId, "missing from fixedPrices");
    positivePrice(assetId, price);
    return price;
  }
}

/** Reads a price as an exact positive ratio, or throws PriceUnavailableError naming the asset. */
export async function readPrice(source: PriceSource, assetId: string): Promise<Ratio> {
  return positivePrice(assetId, await source.usdPrice(assetId));
}

/** Per asset: its live sources where prices.assets lists it, else the fixed table. */
class AssetPrices implements PriceSource {
  constructor(
    private readonly live: LivePriceSource,
    private readonly fixed: PriceSource,
  ) {}

  usdPrice(assetId: string): Promise<DecimalString> {
    return this.live.has(assetId) ? this.live.usdPrice(assetId) : this.fixed.usdPrice(assetId);
  }
}

/** The solver's prices out of the fixed table (`fixedPrices`) and its live prices. */
export function priceSourcesOf(
  fixedPrices: Readonly<Record<string, DecimalString>>,
  live: LivePriceSource,
): PriceSources {
  const fixed = new FixedPriceSource(fixedPrices);
  return { fixed, live, byAsset: new AssetPrices(live, fixed) };
}
