/**
 * Which parts of the configuration a running solver takes on without a restart: the pricing parts only.
 * Chains, keys, endpoints and the journal are wired into clients and servers at start, and timelock
 * margins into decisions already taken; changing those under a running solver would be unsafe. Every
 * other key a reload finds changed is named, down to the leaf, so that no edit is ignored unseen.
 */
import type { SolverConfig } from "../config/types.js";

/** Taken on at once by a reload. */
export const RELOADED_KEYS = [
  "strategies",
  "fixedPrices",
  "prices",
  "inventoryCurves",
  "limits",
  "networkFees",
  "safety.priceToleranceBps",
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The key paths at which two values differ, down to the leaves (`solver.pollIntervalMs`,
 * `chains[0].rpcUrls[1]`); an entry only one side has is named by its own path.
 */
function changedPaths(a: unknown, b: unknown, path: string, into: string[]): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      changedPaths(a[key], b[key], path === "" ? key : `${path}.${key}`, into);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) changedPaths(a[i], b[i], `${path}[${i}]`, into);
  } else if (fingerprint(a) !== fingerprint(b)) {
    into.push(path);
  }
}

function isReloaded(path: string): boolean {
  return RELOADED_KEYS.some(
    (key) => path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`),
  );
}

/**
 * Every changed key a reload does not take on: each waits for a restart. Names only, never values: the
 * `solver` section holds the private keys, URLs carry API keys.
 */
export function restartOnlyChanges(current: SolverConfig, next: SolverConfig): string[] {
  const changed: string[] = [];
  changedPaths(current, next, "", changed);
  return changed.filter((path) => !isReloaded(path));
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
    networkFees: next.networkFees,
    safety: { ...current.safety, priceToleranceBps: next.safety.priceToleranceBps },
  };
}
