import { describe, expect, it } from "vitest";
import { addUsd, centsUsd, exactUsd, parseUsd, sumUsd, usdEquals, usdValue } from "../../../src/pnl/usd.js";

describe("exact USD values", () => {
  it("values smallest units at a decimal price without rounding", () => {
    // 1 wei of ETH at 3000.5: 3.0005e-15 dollars.
    expect(exactUsd(usdValue(1n, 18, "3000.5"))).toBe("0.0000000000000030005");
    expect(exactUsd(usdValue(150_000_000n, 8, "60000.12"))).toBe("90000.18");
    expect(exactUsd(usdValue(-21_000n * 1_000_000_000n, 18, "3000"))).toBe("-0.063");
  });

  it("adds values of different scales exactly", () => {
    const sum = sumUsd([usdValue(1n, 18, "3000"), usdValue(-1n, 6, "1"), usdValue(2n, 0, "0.5")]);
    expect(exactUsd(sum)).toBe("0.999999000000003");
    expect(usdEquals(addUsd(usdValue(5n, 1, "1"), usdValue(5n, 1, "1")), usdValue(1n, 0, "1"))).toBe(true);
  });

  it("rounds to the cent half away from zero, only for display", () => {
    expect(centsUsd(parseUsd("12.345"))).toBe("12.35");
    expect(centsUsd(parseUsd("-12.345"))).toBe("-12.35");
    expect(centsUsd(parseUsd("-0.004"))).toBe("0.00");
    expect(centsUsd(parseUsd("7"))).toBe("7.00");
    expect(exactUsd(parseUsd("-0.063"))).toBe("-0.063");
  });
});
