/**
 * A wrapped or pegged asset (WBTC, cbBTC, bridged USDC) is priced as its base, and only while its own
 * sources show it near the base: a de-peg must stop quotes, not be papered over by the base's price.
 */
import type { PegConfig } from "../../config/types.js";
import { ratioToDecimal, type Ratio } from "../decimal.js";
import type { Aggregated } from "./aggregate.js";

const ONE: Ratio = { num: 1n, den: 1n };

/** `own` is the asset's own aggregate; `base` the base's USD price (1 for `usd`). */
export function applyPeg(own: Aggregated, base: Ratio, peg: PegConfig): Aggregated {
  if (!own.ok) return { ...own, detail: `cannot check the peg to ${peg.base}: ${own.detail}` };
  // Sources quoting the ratio to the base must show about 1; sources quoting USD about the base's price.
  const expected = peg.quotedIn === "base" ? ONE : base;
  const diff = {
    num: own.price.num * expected.den - expected.num * own.price.den,
    den: own.price.den * expected.den,
  };
  const absNum = diff.num < 0n ? -diff.num : diff.num;
  if (absNum * 10_000n * expected.den > BigInt(peg.maxDeviationBps) * expected.num * diff.den) {
    const bps = (absNum * 10_000n * expected.den) / (expected.num * diff.den);
    return {
      ok: false,
      reason: "price_depegged",
      detail:
        `its own price ${ratioToDecimal(own.price)} is ${bps} bps from ${ratioToDecimal(expected)} ` +
        `(${peg.quotedIn === "base" ? `in ${peg.base}` : "USD"}), max ${peg.maxDeviationBps}`,
    };
  }
  return { ok: true, price: base, used: [...own.used.map((label) => `${label} (peg check)`), peg.base] };
}
