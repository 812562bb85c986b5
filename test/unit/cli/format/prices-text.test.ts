import { describe, expect, it } from "vitest";
import { formatPrices } from "../../../../src/cli/format/prices-text.js";

describe("formatPrices", () => {
  it("shows each asset's price and every source's last answer, or why it has none", () => {
    const text = formatPrices([
      {
        assetId: "bitcoin_regtest:btc",
        price: "60000",
        refusal: null,
        sources: [
          { label: "chainlink ethereum_localnet 0xabc", price: "60010", ageMs: 1_000, error: null },
          { label: "kraken XBTUSD", price: null, ageMs: null, error: "kraken XBTUSD: HTTP 503: {}" },
        ],
      },
      {
        assetId: "arbitrum_localnet:wbtc",
        price: null,
        refusal: "price_stale: 0 of 1 sources fresh, 1 needed",
        sources: [],
      },
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "prices the solver quotes from (USD per unit; the median of each asset's fresh sources):",
    );
    expect(lines[1]).toMatch(/^ {2}ASSET\s+PRICE\s+SOURCES$/);
    expect(lines[2]).toMatch(
      /^ {2}bitcoin_regtest:btc\s+60000\s+chainlink ethereum_localnet 0xabc 60010, kraken XBTUSD \(kraken XBTUSD: HTTP 503: \{\}\)$/,
    );
    expect(lines[3]).toBe("  arbitrum_localnet:wbtc  refused: price_stale: 0 of 1 sources fresh, 1 needed");
    // Columns line up: every source list starts where the header's SOURCES does.
    expect(lines[2]!.indexOf("chainlink")).toBe(lines[1]!.indexOf("SOURCES"));
  });

  it("says when no asset has live sources", () => {
    expect(formatPrices([])).toBe("prices: every asset on the fixed table (no live sources configured)");
  });
});
