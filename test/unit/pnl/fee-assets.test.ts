import { describe, expect, it } from "vitest";
import { feeAssets } from "../../../src/pnl/fee-assets.js";
import type { ChainConfig } from "../../../src/chains/registry.js";

const asset = (chain: string, symbol: string, decimals: number, tokenAddress: string) => ({
  id: `${chain}:${symbol}`,
  chain,
  symbol,
  decimals,
  tokenAddress,
  htlcAddress: "",
});

describe("feeAssets", () => {
  it("takes each chain's coin as the asset its fees are paid in", () => {
    const chains = [
      {
        family: "evm",
        name: "ethereum",
        assets: [
          asset("ethereum", "usdc", 6, "0x01"),
          asset("ethereum", "eth", 18, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"),
        ],
      },
      { family: "evm", name: "base", assets: [asset("base", "usdc", 6, "0x02")] },
      { family: "bitcoin", name: "bitcoin", assets: [asset("bitcoin", "btc", 8, "primary")] },
    ] as unknown as ChainConfig[];
    const feeAssetOf = feeAssets(chains);
    expect(feeAssetOf("ethereum")).toEqual({ id: "ethereum:eth", decimals: 18 });
    expect(feeAssetOf("bitcoin")).toEqual({ id: "bitcoin:btc", decimals: 8 });
    // No coin configured: the fee is still counted, in wei, and reported without a price.
    expect(feeAssetOf("base")).toEqual({ id: "base:native", decimals: 18 });
  });
});
