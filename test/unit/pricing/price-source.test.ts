import { describe, expect, it } from "vitest";
import { FixedPriceSource, PriceUnavailableError, readPrice } from "../../../src/pricing/price-source.js";

describe("FixedPriceSource", () => {
  const source = new FixedPriceSource({ "ethereum:ETH": "3000.5", "x:ZERO": "0", "x:BAD": "1e3" });

  it("returns the configured decimal string", async () => {
    await expect(source.usdPrice("ethereum:ETH")).resolves.toBe("3000.5");
    await expect(readPrice(source, "ethereum:ETH")).resolves.toEqual({ num: 30005n, den: 10n });
  });

  it("throws naming the asset when its price is missing", async () => {
    await expect(source.usdPrice("bitcoin:BTC")).rejects.toThrow(PriceUnavailableError);
    await expect(source.usdPrice("bitcoin:BTC")).rejects.toThrow(/bitcoin:BTC.*missing from fixedPrices/);
  });

  it("refuses zero and malformed prices, naming the asset", async () => {
    await expect(source.usdPrice("x:ZERO")).rejects.toThrow(/x:ZERO: price is zero/);
    await expect(source.usdPrice("x:BAD")).rejects.toThrow(/x:BAD.*"1e3"/);
  });
});
