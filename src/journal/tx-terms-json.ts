/**
 * A signed transaction's family terms as the journal stores them: JSON with bigints as decimal strings
 * under `$bigint`. Journals written before the terms were typed hold a flat map of decimal strings; the
 * family whose map it is reads it into the same types, so an upgrade never strands a journaled transaction.
 */
import { CHAIN_FAMILIES, type TxTerms } from "../chains/registry.js";
import { fromJournalJson, toJournalJson } from "./bigint-json.js";

export function termsToJson(terms: TxTerms): string {
  return toJournalJson(terms);
}

export function termsFromJson(text: string): TxTerms {
  const parsed = fromJournalJson<Record<string, unknown>>(text);
  // Typed terms name their family; only the older flat maps do not.
  if (typeof parsed.family === "string") return parsed as unknown as TxTerms;
  for (const family of CHAIN_FAMILIES) {
    const terms = family.terms.fromLegacy?.(parsed);
    if (terms !== undefined && terms !== null) return terms;
  }
  throw new Error(`journaled transaction terms of no known chain family: ${text}`);
}
