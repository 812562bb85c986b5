import { describe, expect, it } from "vitest";
import {
  acceptsSecretLength,
  describeSecretLength,
  secretLengthUnenforced,
  type SecretLengthRule,
} from "../../../src/chains/secret-length.js";

const ANY: SecretLengthRule = null;
const WORDS: SecretLengthRule = { multipleOf: 4 };
const PAIRS: SecretLengthRule = { multipleOf: 2 };
const EXACT_32: SecretLengthRule = 32;

describe("secret length rules", () => {
  it("accepts by rule", () => {
    expect([31, 32, 33, 36].map((n) => acceptsSecretLength(EXACT_32, n))).toEqual([
      false,
      true,
      false,
      false,
    ]);
    expect([31, 32, 33, 36].map((n) => acceptsSecretLength(WORDS, n))).toEqual([false, true, false, true]);
    expect([0, 33, 520].map((n) => acceptsSecretLength(ANY, n))).toEqual([true, true, true]);
  });

  it("is unenforced exactly when the destination accepts a length the source refuses", () => {
    const cases: [SecretLengthRule, SecretLengthRule, boolean][] = [
      [ANY, ANY, false],
      [ANY, WORDS, false],
      [EXACT_32, EXACT_32, false],
      [EXACT_32, 16, true],
      [EXACT_32, ANY, true],
      [EXACT_32, WORDS, true],
      [WORDS, EXACT_32, false],
      [WORDS, 30, true],
      [WORDS, ANY, true],
      [WORDS, WORDS, false],
      [WORDS, { multipleOf: 8 }, false],
      [WORDS, PAIRS, true],
      [PAIRS, WORDS, false],
    ];
    for (const [source, destination, unenforced] of cases) {
      expect({ source, destination, unenforced: secretLengthUnenforced(source, destination) }).toEqual({
        source,
        destination,
        unenforced,
      });
    }
  });

  it("describes each rule", () => {
    expect([EXACT_32, WORDS, ANY].map(describeSecretLength)).toEqual([
      "32 bytes",
      "a multiple of 4 bytes",
      "any length",
    ]);
  });
});
