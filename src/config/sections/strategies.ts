/** Pricing strategies: one per (from, to) pair so quoting is unambiguous, each on priced, configured assets. */
import { z } from "zod";
import { describeValue } from "../checks.js";
import type { PricingStrategy } from "../types.js";
import { settingsObject, whenObject } from "../zod/objects.js";
import { amount, flag, integer, NOT_AN_ASSET, oneOf, parseNested, text } from "../zod/values.js";

const MAX_BPS = 10_000;

export interface StrategyContext {
  assetIds: ReadonlySet<string>;
  /** Asset ids listed in fixedPrices (valid or not: a bad price is reported there, not again here). */
  pricedAssets: ReadonlySet<string>;
  /** Asset ids listed in prices.assets (valid or not, likewise). */
  livePricedAssets: ReadonlySet<string>;
}

/** Every setting of a strategy. */
export const strategyKeys = (): string[] =>
  Object.keys(
    strategySchema({ assetIds: new Set(), pricedAssets: new Set(), livePricedAssets: new Set() }).shape,
  );

function strategySchema(context: StrategyContext) {
  const assetRef = text().superRefine((id, ctx) => {
    if (id !== "" && !context.assetIds.has(id))
      ctx.addIssue({ code: "custom", message: `${describeValue(id)} ${NOT_AN_ASSET}` });
  });
  return settingsObject(
    {
      from: assetRef,
      to: assetRef,
      minAmount: amount({ min: 1n }),
      maxAmount: amount({ min: 1n }),
      feeBps: integer(0, MAX_BPS),
      fixedFee: amount({ default: 0n }),
      spreadBps: integer(0, MAX_BPS, { default: 0 }),
      priceSource: oneOf(["fixed", "live"], { default: "fixed" }),
      estimatedTimeSeconds: integer(1),
      enabled: flag({ default: true }),
    },
    "a strategy",
  ).superRefine((strategy, ctx) => {
    const problem = (key: string, message: string) => ctx.addIssue({ code: "custom", path: [key], message });
    if (strategy.from !== "" && strategy.from === strategy.to) problem("to", "must differ from `from`");
    if (strategy.minAmount > strategy.maxAmount && strategy.maxAmount > 0n)
      problem("minAmount", `${strategy.minAmount} must not exceed maxAmount ${strategy.maxAmount}`);
    const [priced, where] =
      strategy.priceSource === "fixed"
        ? [context.pricedAssets, "price in fixedPrices"]
        : [context.livePricedAssets, "live price sources in prices.assets"];
    for (const key of ["from", "to"] as const) {
      const id = strategy[key];
      if (context.assetIds.has(id) && !priced.has(id))
        problem(key, `"${id}" has no ${where}, which priceSource "${strategy.priceSource}" needs`);
    }
  }, whenObject);
}

const NO_STRATEGY = null;

export function strategiesSchema(context: StrategyContext): z.ZodType<PricingStrategy[], unknown> {
  const strategy = strategySchema(context);
  return z.unknown().transform((raw, ctx) => {
    if (!Array.isArray(raw)) {
      ctx.addIssue({ code: "custom", message: `${describeValue(raw)} must be an array of strategies` });
      return [];
    }
    const strategies: PricingStrategy[] = [];
    const pairs: Pick<PricingStrategy, "from" | "to">[] = [];
    raw.forEach((value, index) => {
      const read = parseNested<PricingStrategy | null>(ctx, strategy, value, NO_STRATEGY, [index]);
      if (read !== null) strategies.push(read);
      const pair = read ?? partialStrategy(value);
      if (pair === null) return;
      if (pairs.some((p) => p.from === pair.from && p.to === pair.to)) {
        const message = `the pair ${pair.from} -> ${pair.to} already has a strategy`;
        ctx.addIssue({ code: "custom", path: [index, "to"], message });
      }
      pairs.push(pair);
    });
    return strategies;
  });
}

/** The pair of a strategy with problems, so a second strategy of the same pair is still reported. */
function partialStrategy(value: unknown): Pick<PricingStrategy, "from" | "to"> | null {
  if (value === null || typeof value !== "object") return null;
  const { from, to } = value as Record<string, unknown>;
  return typeof from === "string" && typeof to === "string" ? { from, to } : null;
}
