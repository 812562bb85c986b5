import { describe, expect, it } from "vitest";
import { termsFromJson, termsToJson } from "../../../src/journal/tx-terms-json.js";

describe("journaled transaction terms", () => {
  it("round-trips each family's terms with exact bigints", () => {
    const bitcoin = {
      family: "bitcoin" as const,
      feeRateSatVb: 3n,
      feeSats: 462n,
      inputValues: [2n ** 60n, 1n],
      instantRefund: { redeemerSignatures: ["aa", "bb"] },
    };
    expect(termsFromJson(termsToJson(bitcoin))).toEqual(bitcoin);
    const evm = { family: "evm" as const, maxFeePerGas: 10n ** 30n, maxPriorityFeePerGas: 1n, gas: 90_000n };
    expect(termsFromJson(termsToJson(evm))).toEqual(evm);
  });

  it("reads the flat string maps older journals wrote", () => {
    expect(termsFromJson('{"maxFeePerGas":"2000000000","maxPriorityFeePerGas":"1","gas":"77000"}')).toEqual({
      family: "evm",
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1n,
      gas: 77_000n,
    });
    expect(termsFromJson('{"feeRateSatVb":"2","feeSats":"308","inputValues":"5000000000,70000"}')).toEqual({
      family: "bitcoin",
      feeRateSatVb: 2n,
      feeSats: 308n,
      inputValues: [5_000_000_000n, 70_000n],
    });
    expect(
      termsFromJson('{"feeSats":"200","partial":"instant_refund","redeemerSignatures":"aa,bb"}'),
    ).toMatchObject({
      family: "bitcoin",
      feeSats: 200n,
      instantRefund: { redeemerSignatures: ["aa", "bb"] },
    });
  });

  it("refuses a flat map that is no family's, naming it, rather than reading it as some family's", () => {
    expect(() => termsFromJson('{"gasPrice":"7"}')).toThrow(
      'journaled transaction terms of no known chain family: {"gasPrice":"7"}',
    );
  });
});
