import type { PricingStrategy } from "../types.js";
import type { Problems } from "../errors.js";
import { describeValue, parseAmount } from "./checks.js";
import { fieldsOf, type Fields } from "./fields.js";

export const STRATEGY_KEYS = [
  ...["from", "to", "minAmount", "maxAmount", "feeBps", "fixedFee", "spreadBps"],
  ...["priceSource", "estimatedTimeSeconds", "enabled"],
];
const MAX_BPS = 10_000;

export interface StrategyContext {
  assetIds: ReadonlySet<string>;
  /** Asset ids listed in fixedPrices (valid or not: a bad price is reported there, not again here). */
  pricedAssets: ReadonlySet<string>;
  /** Asset ids listed in prices.assets (valid or not, likewise). */
  livePricedAssets: ReadonlySet<string>;
}

function readAssetRef(f: Fields, key: "from" | "to", context: StrategyContext): string {
  const id = f.string(key);
  if (id !== "" && !context.assetIds.has(id)) {
    f.problem(key, `${describeValue(id)} is not a configured asset (<chain>:<symbol> of chains[].assets)`);
  }
  return id;
}

function readStrategy(f: Fields, context: StrategyContext): PricingStrategy {
  f.onlyKeys(STRATEGY_KEYS, "a strategy");
  const strategy: PricingStrategy = {
    from: readAssetRef(f, "from", context),
    to: readAssetRef(f, "to", context),
    minAmount: f.amount("minAmount", { min: 1n }),
    maxAmount: f.amount("maxAmount", { min: 1n }),
    feeBps: f.integer("feeBps", 0, MAX_BPS),
    fixedFee: f.amount("fixedFee", { default: 0n }),
    spreadBps: f.integer("spreadBps", 0, MAX_BPS, { default: 0 }),
    priceSource: f.oneOf("priceSource", ["fixed", "live"] as const, { default: "fixed" }),
    estimatedTimeSeconds: f.integer("estimatedTimeSeconds", 1),
    enabled: f.boolean("enabled", { default: true }),
  };
  if (strategy.from !== "" && strategy.from === strategy.to) f.problem("to", "must differ from `from`");
  const bothParsed = [f.obj.minAmount, f.obj.maxAmount].every((v) => typeof parseAmount(v) === "bigint");
  if (bothParsed && strategy.minAmount > strategy.maxAmount) {
    f.problem("minAmount", `${strategy.minAmount} must not exceed maxAmount ${strategy.maxAmount}`);
  }
  const [priced, where] =
    strategy.priceSource === "fixed"
      ? [context.pricedAssets, "price in fixedPrices"]
      : [context.livePricedAssets, "live price sources in prices.assets"];
  for (const key of ["from", "to"] as const) {
    const id = strategy[key];
    if (context.assetIds.has(id) && !priced.has(id)) {
      f.problem(key, `"${id}" has no ${where}, which priceSource "${strategy.priceSource}" needs`);
    }
  }
  return strategy;
}

/** Pricing strategies; each pair appears at most once so quoting is unambiguous. */
export function readStrategies(
  problems: Problems,
  raw: unknown,
  context: StrategyContext,
): PricingStrategy[] {
  if (!Array.isArray(raw)) {
    problems.add("strategies", `${describeValue(raw)} must be an array of strategies`);
    return [];
  }
  const strategies: PricingStrategy[] = [];
  raw.forEach((value, index) => {
    const f = fieldsOf(problems, value, `strategies[${index}]`, "a strategy");
    if (f === null) return;
    const strategy = readStrategy(f, context);
    if (strategies.some((s) => s.from === strategy.from && s.to === strategy.to)) {
      f.problem("to", `the pair ${strategy.from} -> ${strategy.to} already has a strategy`);
    }
    strategies.push(strategy);
  });
  return strategies;
}
