/** Per-asset amounts (order ceilings, inventory floors) and the fixed USD prices, keyed by asset id. */
import { z } from "zod";
import { checkDecimalString, parseAmount } from "../checks.js";
import type { Limits } from "../types.js";
import { amount, assetMap, setting } from "../zod/values.js";

/** A map from configured asset id to an amount in that asset's smallest units. */
export const amountMap = (assetIds: ReadonlySet<string>) =>
  assetMap(amount(), 0n, assetIds, "<asset id>: amount");

/** USD price per whole unit, kept as the exact decimal string the operator wrote. */
export function fixedPricesSchema(assetIds: ReadonlySet<string>) {
  const price = setting<string>((v) => {
    const problem = checkDecimalString(v);
    return problem === null ? { value: v as string } : { problem };
  }, "");
  return assetMap(price, "", assetIds, '<asset id>: "USD price"');
}

export function limitsSchema(assetIds: ReadonlySet<string>): z.ZodType<Limits, unknown> {
  return z.object({
    maxOrderAmount: amountMap(assetIds),
    inventoryFloor: amountMap(assetIds),
    // The schema's amount format has already reported a bad value here.
    maxInFlightUsdCents: z.unknown().transform((v) => {
      const parsed = parseAmount(v);
      return typeof parsed === "bigint" ? parsed : 0n;
    }),
  });
}
