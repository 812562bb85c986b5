/** Entry point and event selectors: starknet_keccak of the name, as Cairo derives them. */
import { hash } from "starknet";

export function selectorOf(name: string): bigint {
  return BigInt(hash.getSelectorFromName(name));
}

/** An entry point table keyed by selector, built from names (aliases share one handler). */
export function entryPointTable<H>(entries: [names: string[], handler: H][]): Map<bigint, H> {
  const table = new Map<bigint, H>();
  for (const [names, handler] of entries) for (const name of names) table.set(selectorOf(name), handler);
  return table;
}
