/**
 * Whether the solver can take on a fill of `amount` of the destination asset: enough inventory above the
 * floor, enough of the chain's fee coin above its floor to pay for it, and total value in flight within
 * the exposure limit. One rule (`judgeCapacity`), asked when quoting (from cached balances) and again when
 * fills are claimed (`CapacityLedger`, from fresh ones, counting every fill claimed before).
 */
import type { AssetConfig, Limits } from "../config/types.js";
import { describeAmount } from "./assets.js";
import { formatCents } from "./decimal.js";
import { usdCentsUp, type PricedAsset } from "./conversion.js";
import type { CapacityView } from "./inventory.js";
import { PriceUnavailableError } from "./price-source.js";
import { refuse, type QuoteRefusal } from "./refusal.js";

export interface CapacityFigures {
  /** Destination asset above its floor, after every fill already promised. */
  available: bigint;
  /** The chain's fee coin above its floor (null when the destination asset is that coin itself). */
  gasAvailable: bigint | null;
  /** Value in flight before this fill, USD cents. */
  inFlightCents: bigint;
}

/** The capacity rule itself: pure, on figures read by the caller. */
export function judgeCapacity(
  figures: CapacityFigures,
  limits: Limits,
  to: AssetConfig & PricedAsset,
  amount: bigint,
): QuoteRefusal | undefined {
  if (figures.available < amount) {
    const shown = figures.available < 0n ? 0n : figures.available;
    return refuse(
      "insufficient_inventory",
      `${describeAmount(amount, to)} exceeds the ${describeAmount(shown, to)} available above the floor`,
    );
  }
  if (figures.gasAvailable !== null && figures.gasAvailable < 0n) {
    return refuse(
      "insufficient_gas",
      `the fee coin of ${to.chain} is ${-figures.gasAvailable} smallest units below its floor; no fill until it is topped up`,
    );
  }
  const after = figures.inFlightCents + usdCentsUp(amount, to);
  if (after > limits.maxInFlightUsdCents) {
    return refuse(
      "exposure_limit",
      `filling would put $${formatCents(after)} in flight, above the limit of $${formatCents(limits.maxInFlightUsdCents)}`,
    );
  }
  return undefined;
}

/** The quote path: reads the (cached) inventory view, then judges. */
export async function checkCapacity(
  capacity: CapacityView,
  limits: Limits,
  to: AssetConfig & PricedAsset,
  amount: bigint,
  gasAsset: string | null,
): Promise<QuoteRefusal | undefined> {
  let figures: CapacityFigures;
  try {
    const [available, gasAvailable, inFlightCents] = await Promise.all([
      capacity.available(to.id),
      gasAsset === null || gasAsset === to.id ? Promise.resolve(null) : capacity.available(gasAsset),
      capacity.inFlightUsdCents(),
    ]);
    figures = { available, gasAvailable, inFlightCents };
  } catch (error) {
    if (error instanceof PriceUnavailableError) return refuse("price_unavailable", error.message);
    return refuse("inventory_unavailable", `cannot read inventory: ${(error as Error).message}`);
  }
  return judgeCapacity(figures, limits, to, amount);
}
