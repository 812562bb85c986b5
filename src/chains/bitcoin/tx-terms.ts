/** What a Bitcoin transaction pays and spends, and its older journal form. */
import type { TermsCodec } from "../family-module.js";

/**
 * Its fee rate and fee, and each input's value (a replacement re-signs the same inputs, whose values the
 * raw transaction does not carry). An instant refund is only the redeemer's half, with its signatures to
 * hand over.
 */
export interface BitcoinTxTerms {
  family: "bitcoin";
  feeRateSatVb: bigint;
  feeSats: bigint;
  inputValues: bigint[];
  instantRefund?: { redeemerSignatures: string[] };
}

export const bitcoinTermsCodec: TermsCodec<BitcoinTxTerms> = {
  // Every flat map of a Bitcoin transaction states its fee.
  fromLegacy: (flat) => {
    if (flat.feeSats === undefined) return null;
    const big = (key: string): bigint => BigInt(String(flat[key] ?? "0"));
    const values = String(flat.inputValues ?? "");
    const signatures =
      typeof flat.redeemerSignatures === "string" ? flat.redeemerSignatures.split(",") : null;
    return {
      family: "bitcoin",
      feeRateSatVb: big("feeRateSatVb"),
      feeSats: big("feeSats"),
      inputValues: values === "" ? [] : values.split(",").map((v) => BigInt(v)),
      ...(signatures === null ? {} : { instantRefund: { redeemerSignatures: signatures } }),
    };
  },
};
