/**
 * `networkFees`: what quotes charge for the network fees an order causes and the minimum profit, and
 * how fee estimates are read. The schema's formats have checked each value; this gives them their types.
 */
import { z } from "zod";
import type { NetworkFeeSettings } from "../../pricing/network-fees/facts.js";
import { parseAmount } from "../checks.js";

// A bad value has already been reported by the schema's format; it reads as 0 here.
const cents = z.unknown().transform((v) => {
  const parsed = parseAmount(v);
  return typeof parsed === "bigint" ? parsed : 0n;
});

export function networkFeesSchema(): z.ZodType<NetworkFeeSettings, unknown> {
  return z.object({
    minProfitUsdCents: cents,
    refundProbabilityBps: z.number(),
    lossToleranceUsdCents: cents,
    refreshMs: z.number(),
    maxAgeMs: z.number(),
    batchWindowMs: z.number(),
  });
}
