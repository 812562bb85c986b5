/**
 * Which parts of the configuration a running solver takes on without a restart: the pricing parts only.
 * Chains, keys, endpoints and the journal are wired into clients and servers at start, and timelock
 * margins into decisions already taken; changing those under a running solver would be unsafe.
 */
import type { SolverConfig } from "../config/types.js";

/** Taken on at once by a reload. */
export const RELOADED_KEYS = [
  "strategies",
  "fixedPrices",
  "prices",
  "inventoryCurves",
  "limits",
  "safety.priceToleranceBps",
] as const;

/** Read once at start; a change is reported and waits for a restart. */
export const RESTART_KEYS = [
  "service",
  "solver",
  "chains",
  "safety.timelockMarginMs",
  "safety.redeemDeadlineMarginMs",
  "journal",
  "ops",
  "quote",
  "log",
] as const;

function valueAt(config: SolverConfig, path: string): unknown {
  let node: unknown = config;
  for (const key of path.split(".")) node = (node as Record<string, unknown>)[key];
  return node;
}

/** Comparable text of a value holding bigints (never logged: it may hold keys). */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "bigint" ? `${inner}n` : inner));
}

/** The restart-only keys whose values differ; names only, since `solver` holds the keys. */
export function restartOnlyChanges(current: SolverConfig, next: SolverConfig): string[] {
  return RESTART_KEYS.filter((key) => fingerprint(valueAt(current, key)) !== fingerprint(valueAt(next, key)));
}

/** The reloaded keys whose values differ. */
export function reloadedChanges(current: SolverConfig, next: SolverConfig): string[] {
  return RELOADED_KEYS.filter(
    (key) => fingerprint(valueAt(current, key)) !== fingerprint(valueAt(next, key)),
  );
}

/** The configuration in force after a reload: `current` with the reloadable parts of `next`. */
export function withReloadedParts(current: SolverConfig, next: SolverConfig): SolverConfig {
  return {
    ...current,
    strategies: next.strategies,
    fixedPrices: next.fixedPrices,
    prices: next.prices,
    inventoryCurves: next.inventoryCurves,
    limits: next.limits,
    safety: { ...current.safety, priceToleranceBps: next.safety.priceToleranceBps },
  };
}
