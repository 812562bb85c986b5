import type { PricingStrategy } from "../config/types.js";

/** The strategy that prices `from` → `to`; pairs are directional, so the reverse pair is its own strategy. */
export function findStrategy(
  strategies: readonly PricingStrategy[],
  from: string,
  to: string,
): PricingStrategy | undefined {
  return strategies.find((strategy) => strategy.from === from && strategy.to === to);
}
