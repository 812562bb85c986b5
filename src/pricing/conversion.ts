/**
 * Value conversion between assets by USD price and decimals, kept exact as ratios. Prices are USD per whole
 * unit; amounts are smallest units, so decimals enter as powers of ten on either side.
 */
import { ceilRatio, floorRatio, pow10, type Ratio } from "./decimal.js";

export interface PricedAsset {
  decimals: number;
  /** USD per whole unit. */
  usdPrice: Ratio;
}

/** Destination smallest units worth exactly `fromAmount` source smallest units: a ratio, not yet rounded. */
export function convertAmount(fromAmount: bigint, from: PricedAsset, to: PricedAsset): Ratio {
  return {
    num: fromAmount * from.usdPrice.num * to.usdPrice.den * pow10(to.decimals),
    den: pow10(from.decimals) * from.usdPrice.den * to.usdPrice.num,
  };
}

/** USD value of `amount` smallest units, in cents, as an exact ratio. */
export function usdCents(amount: bigint, asset: PricedAsset): Ratio {
  return {
    num: amount * asset.usdPrice.num * 100n,
    den: pow10(asset.decimals) * asset.usdPrice.den,
  };
}

/** Cents rounded down: what the solver shows as a value, never overstating it. */
export function usdCentsDown(amount: bigint, asset: PricedAsset): bigint {
  return floorRatio(usdCents(amount, asset));
}

/** Cents rounded up: what the solver counts against its exposure limit, never understating it. */
export function usdCentsUp(amount: bigint, asset: PricedAsset): bigint {
  return ceilRatio(usdCents(amount, asset));
}
