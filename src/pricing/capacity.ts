/**
 * Whether the solver can take on a fill of `amount` of the destination asset: enough inventory above the
 * floor, and total value in flight within the exposure limit.
 */
import type { AssetConfig, Limits } from "../config/types.js";
import { describeAmount } from "./assets.js";
import { formatCents } from "./decimal.js";
import { usdCentsUp, type PricedAsset } from "./conversion.js";
import type { CapacityView } from "./inventory.js";
import { PriceUnavailableError } from "./price-source.js";
import { refuse, type QuoteRefusal } from "./refusal.js";

export async function checkCapacity(
  capacity: CapacityView,
  limits: Limits,
  to: AssetConfig & PricedAsset,
  amount: bigint,
): Promise<QuoteRefusal | undefined> {
  let available: bigint;
  let inFlight: bigint;
  try {
    [available, inFlight] = await Promise.all([capacity.available(to.id), capacity.inFlightUsdCents()]);
  } catch (error) {
    if (error instanceof PriceUnavailableError) return refuse(error.reason, error.message);
    return refuse("inventory_unavailable", `cannot read inventory: ${(error as Error).message}`);
  }
  if (available < amount) {
    const shown = available < 0n ? 0n : available;
    return refuse(
      "insufficient_inventory",
      `${describeAmount(amount, to)} exceeds the ${describeAmount(shown, to)} available above the floor`,
    );
  }
  const after = inFlight + usdCentsUp(amount, to);
  if (after > limits.maxInFlightUsdCents) {
    return refuse(
      "exposure_limit",
      `filling would put $${formatCents(after)} in flight, above the limit of $${formatCents(limits.maxInFlightUsdCents)}`,
    );
  }
  return undefined;
}
