import { describe, expect, it } from "vitest";
import {
  ceilRatio,
  floorRatio,
  formatCents,
  formatUnits,
  InvalidDecimalError,
  parseDecimal,
} from "../../../src/pricing/decimal.js";

describe("parseDecimal", () => {
  it("keeps every digit as an exact ratio", () => {
    expect(parseDecimal("3000.5")).toEqual({ num: 30005n, den: 10n });
    expect(parseDecimal("65000.25")).toEqual({ num: 6500025n, den: 100n });
    expect(parseDecimal("7")).toEqual({ num: 7n, den: 1n });
    expect(parseDecimal("0.000000000000000001")).toEqual({ num: 1n, den: 10n ** 18n });
  });

  it.each(["", "-1", "1e5", "1.", ".5", "1,5", " 1", "0x10", "NaN"])(
    "rejects %j naming the value",
    (input) => {
      expect(() => parseDecimal(input, "price of X")).toThrow(InvalidDecimalError);
      expect(() => parseDecimal(input, "price of X")).toThrow(/price of X/);
    },
  );
});

describe("formatUnits", () => {
  it("writes whole units exactly and drops trailing zeros", () => {
    expect(formatUnits(1_500_000n, 6)).toBe("1.5");
    expect(formatUnits(1_000_000n, 6)).toBe("1");
    expect(formatUnits(1n, 18)).toBe("0.000000000000000001");
    expect(formatUnits(0n, 8)).toBe("0");
    expect(formatUnits(123_456_789_012n, 8)).toBe("1234.56789012");
    expect(formatUnits(42n, 0)).toBe("42");
    expect(formatUnits(-2_500n, 3)).toBe("-2.5");
  });
});

describe("formatCents and rounding", () => {
  it("writes two decimals", () => {
    expect(formatCents(0n)).toBe("0.00");
    expect(formatCents(5n)).toBe("0.05");
    expect(formatCents(6_500_025n)).toBe("65000.25");
  });

  it("rounds ratios down and up", () => {
    expect(floorRatio({ num: 7n, den: 2n })).toBe(3n);
    expect(ceilRatio({ num: 7n, den: 2n })).toBe(4n);
    expect(ceilRatio({ num: 8n, den: 2n })).toBe(4n);
  });
});
