import { describe, expect, it } from "vitest";
import { coinOf, declaredCoinsOf, feeCoinsOf, type CoinChain } from "../../../src/chains/coins.js";
import type { AssetConfig } from "../../../src/config/common-chain.js";

const asset = (chain: string, symbol: string, tokenAddress: string, decimals = 18): AssetConfig => ({
  id: `${chain}:${symbol}`,
  chain,
  symbol,
  decimals,
  tokenAddress,
  htlcAddress: "0x0000000000000000000000000000000000000001",
});

const listing: CoinChain = { name: "ethereum", family: "evm", assets: [asset("ethereum", "eth", "native")] };
const declaring: CoinChain = {
  name: "arbitrum",
  family: "evm",
  coinSymbol: "eth",
  assets: [asset("arbitrum", "usdc", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6)],
};
const silent: CoinChain = { name: "base", family: "evm", assets: declaring.assets };

describe("a chain's coin", () => {
  it("is the listed asset that is the coin, else the declared one with the family's decimals", () => {
    expect(coinOf(listing)?.id).toBe("ethereum:eth");
    expect(coinOf(declaring)).toEqual({
      id: "arbitrum:eth",
      chain: "arbitrum",
      symbol: "eth",
      decimals: 18,
      tokenAddress: "",
      htlcAddress: "",
    });
    expect(coinOf(silent)).toBeUndefined();
  });

  it("adds only declared coins to what fee pricing knows beside the assets", () => {
    expect(declaredCoinsOf([listing, declaring, silent]).map((c) => c.id)).toEqual(["arbitrum:eth"]);
    expect(feeCoinsOf([listing, declaring, silent])).toEqual({
      ethereum: "ethereum:eth",
      arbitrum: "arbitrum:eth",
    });
  });
});
