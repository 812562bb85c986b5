import { describe, expect, it } from "vitest";
import { convertAmount } from "../../../src/pricing/conversion.js";
import { parseDecimal } from "../../../src/pricing/decimal.js";
import { applyFees, InvalidStrategyError } from "../../../src/pricing/fees.js";
import { BTC, ETH, USDC, strategy } from "./fixtures.js";

describe("applyFees", () => {
  it("takes nothing from an exact amount when all fees are zero", () => {
    expect(applyFees({ num: 65_000_250_000n, den: 1n }, strategy(BTC, USDC))).toBe(65_000_250_000n);
  });

  it("takes feeBps of the value, spreadBps of the rest, then the fixed fee", () => {
    const fees = strategy(BTC, USDC, { feeBps: 30, spreadBps: 20, fixedFee: 1_500_000n });
    // 65000.25 * 0.997 * 0.998 = 64675.6387515 USDC -> 64675.638751 (down) - 1.5
    expect(applyFees({ num: 65_000_250_000n, den: 1n }, fees)).toBe(64_674_138_751n);
  });

  it("applies fee alone and spread alone", () => {
    expect(applyFees({ num: 1_000_000n, den: 1n }, strategy(BTC, USDC, { feeBps: 100 }))).toBe(990_000n);
    expect(applyFees({ num: 1_000_000n, den: 1n }, strategy(BTC, USDC, { spreadBps: 250 }))).toBe(975_000n);
    expect(applyFees({ num: 1_000_000n, den: 1n }, strategy(BTC, USDC, { fixedFee: 7n }))).toBe(999_993n);
  });

  it("rounds down the exact result, never up", () => {
    // 4616136.09... * 0.9975 * 0.999 = 4599991.9... -> 4599991, minus 1000
    const fees = strategy(ETH, BTC, { feeBps: 25, spreadBps: 10, fixedFee: 1000n });
    const gross = convertAmount(
      10n ** 18n,
      { decimals: 18, usdPrice: parseDecimal("3000.5") },
      { decimals: 8, usdPrice: parseDecimal("65000.25") },
    );
    expect(applyFees(gross, strategy(ETH, BTC))).toBe(4_616_136n);
    expect(applyFees(gross, fees)).toBe(4_598_991n);
    expect(applyFees({ num: 999n, den: 1000n }, strategy(ETH, BTC))).toBe(0n);
  });

  it("can go to zero or below; the caller refuses those", () => {
    expect(applyFees({ num: 100n, den: 1n }, strategy(BTC, USDC, { fixedFee: 100n }))).toBe(0n);
    expect(applyFees({ num: 100n, den: 1n }, strategy(BTC, USDC, { fixedFee: 150n }))).toBe(-50n);
    expect(applyFees({ num: 100n, den: 1n }, strategy(BTC, USDC, { feeBps: 10_000 }))).toBe(0n);
  });

  it.each([{ feeBps: -1 }, { feeBps: 10_001 }, { spreadBps: 1.5 }])(
    "rejects out-of-range basis points %j naming the pair",
    (bad) => {
      expect(() => applyFees({ num: 1n, den: 1n }, strategy(BTC, USDC, bad))).toThrow(InvalidStrategyError);
      expect(() => applyFees({ num: 1n, den: 1n }, strategy(BTC, USDC, bad))).toThrow(
        /bitcoin:BTC -> ethereum:USDC/,
      );
    },
  );
});
