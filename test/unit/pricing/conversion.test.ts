import { describe, expect, it } from "vitest";
import {
  convertAmount,
  usdCentsDown,
  usdCentsUp,
  type PricedAsset,
} from "../../../src/pricing/conversion.js";
import { floorRatio, parseDecimal } from "../../../src/pricing/decimal.js";

const usdc: PricedAsset = { decimals: 6, usdPrice: parseDecimal("1") };
const eth: PricedAsset = { decimals: 18, usdPrice: parseDecimal("3000.5") };
const btc: PricedAsset = { decimals: 8, usdPrice: parseDecimal("65000.25") };

describe("convertAmount across decimals", () => {
  it("6 -> 18: 1000 USDC buys 1000/3000.5 ETH", () => {
    const gross = convertAmount(1_000_000_000n, usdc, eth);
    expect(gross.num * 6001n).toBe(gross.den * 2_000_000_000_000_000_000_000n);
    expect(floorRatio(gross)).toBe(333_277_787_035_494_084n);
  });

  it("18 -> 6: 1 ETH is 3000.5 USDC exactly", () => {
    expect(floorRatio(convertAmount(10n ** 18n, eth, usdc))).toBe(3_000_500_000n);
  });

  it("18 -> 8: 1 ETH is 3000.5/65000.25 BTC", () => {
    expect(floorRatio(convertAmount(10n ** 18n, eth, btc))).toBe(4_616_136n);
  });

  it("8 -> 6: 1 BTC is 65000.25 USDC exactly", () => {
    expect(floorRatio(convertAmount(100_000_000n, btc, usdc))).toBe(65_000_250_000n);
  });

  it("8 -> 18: 0.12345678 BTC in wei", () => {
    expect(floorRatio(convertAmount(12_345_678n, btc, eth))).toBe(2_674_461_444_490_918_180n);
  });

  it("a smallest unit worth less than a destination unit converts to zero", () => {
    expect(floorRatio(convertAmount(1n, eth, btc))).toBe(0n);
  });
});

describe("usd cents", () => {
  it("rounds values down for display and up for exposure", () => {
    // 1 wei of ETH is a tiny fraction of a cent.
    expect(usdCentsDown(1n, eth)).toBe(0n);
    expect(usdCentsUp(1n, eth)).toBe(1n);
    expect(usdCentsDown(100_000_000n, btc)).toBe(6_500_025n);
    expect(usdCentsUp(100_000_000n, btc)).toBe(6_500_025n);
    // 0.333 ETH = 999.1665 USD
    expect(usdCentsDown(333_000_000_000_000_000n, eth)).toBe(99_916n);
    expect(usdCentsUp(333_000_000_000_000_000n, eth)).toBe(99_917n);
  });
});
