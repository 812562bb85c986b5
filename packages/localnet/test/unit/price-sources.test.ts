import { describe, expect, it } from "vitest";
import { feedAnswer } from "../../src/families/evm/price-feeds.js";
import { krakenPairName } from "../../src/ticker-server.js";

describe("localnet price sources", () => {
  it("writes a USD price as a feed's 8-decimal answer, exactly or not at all", () => {
    expect(feedAnswer("60000")).toBe(6_000_000_000_000n);
    expect(feedAnswer("0.99999999")).toBe(99_999_999n);
    expect(() => feedAnswer("1.000000001")).toThrow(/more than 8 decimals/);
  });

  it("names pairs as Kraken does: XBT for BTC and X/Z prefixes on the main pairs", () => {
    expect(krakenPairName("BTC")).toEqual({ request: "XBTUSD", answer: "XXBTZUSD" });
    expect(krakenPairName("ETH")).toEqual({ request: "ETHUSD", answer: "XETHZUSD" });
    expect(krakenPairName("USDC")).toEqual({ request: "USDCUSD", answer: "USDCUSD" });
  });
});
