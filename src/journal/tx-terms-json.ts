/**
 * A signed transaction's family terms as the journal stores them: JSON with bigints as decimal strings
 * under `$bigint`. Journals written before the terms were typed hold a flat map of decimal strings; those
 * are read into the same types, so an upgrade never strands a journaled transaction.
 */
import type { TxTerms } from "../chains/chain.js";
import { fromJournalJson, toJournalJson } from "./bigint-json.js";

export function termsToJson(terms: TxTerms): string {
  return toJournalJson(terms);
}

export function termsFromJson(text: string): TxTerms {
  const parsed = fromJournalJson<Record<string, unknown>>(text);
  // Typed terms name their family; only the older flat maps do not.
  if (typeof parsed.family === "string") return parsed as unknown as TxTerms;
  return legacyTerms(parsed);
}

function legacyTerms(flat: Record<string, unknown>): TxTerms {
  const big = (key: string): bigint => BigInt(String(flat[key] ?? "0"));
  if (flat.maxFeePerGas !== undefined) {
    return {
      family: "evm",
      maxFeePerGas: big("maxFeePerGas"),
      maxPriorityFeePerGas: big("maxPriorityFeePerGas"),
      gas: big("gas"),
    };
  }
  const values = String(flat.inputValues ?? "");
  const signatures = typeof flat.redeemerSignatures === "string" ? flat.redeemerSignatures.split(",") : null;
  return {
    family: "bitcoin",
    feeRateSatVb: big("feeRateSatVb"),
    feeSats: big("feeSats"),
    inputValues: values === "" ? [] : values.split(",").map((v) => BigInt(v)),
    ...(signatures === null ? {} : { instantRefund: { redeemerSignatures: signatures } }),
  };
}
