import { describe, expect, it } from "vitest";
import { UnknownEvmAssetError, isNativeToken, resolveEvmAsset } from "../../../../src/chains/evm/assets.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";

const TOKEN = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const HTLC = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const NATIVE_HTLC = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";

const config: EvmChainConfig = {
  family: "evm",
  name: "ethereum",
  chainId: 1,
  rpcUrls: ["http://127.0.0.1:1"],
  minBlockTimeMs: 12_000,
  maxBlockTimeMs: 15_000,
  minConfirmations: 3,
  finalityDepth: 12,
  fillTimelockBlocks: 300,
  bumpAfterMs: 60_000,
  maxHeadLagBlocks: 3,
  rpcTimeoutMs: 15_000,
  maxFeePerGasWei: 10n ** 12n,
  assets: [
    {
      id: "ethereum:USDC",
      chain: "ethereum",
      symbol: "USDC",
      decimals: 6,
      tokenAddress: TOKEN,
      htlcAddress: HTLC,
    },
    {
      id: "ethereum:ETH",
      chain: "ethereum",
      symbol: "ETH",
      decimals: 18,
      tokenAddress: "native",
      htlcAddress: NATIVE_HTLC,
    },
  ],
};

describe("resolveEvmAsset", () => {
  it("resolves a token asset to checksummed HTLC and token addresses", () => {
    const asset = resolveEvmAsset(config, "ethereum:USDC");
    expect(asset.htlc).toBe("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
    expect(asset.token).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3");
  });

  it("resolves the native coin to its HTLC and no token", () => {
    expect(resolveEvmAsset(config, "ethereum:ETH").token).toBeNull();
  });

  it("throws an error naming an unknown asset and the chain", () => {
    expect(() => resolveEvmAsset(config, "ethereum:DAI")).toThrow(UnknownEvmAssetError);
    expect(() => resolveEvmAsset(config, "ethereum:DAI")).toThrow(
      "asset ethereum:DAI is not configured on EVM chain ethereum",
    );
  });

  it("throws when a configured address is not an address", () => {
    const broken = { ...config, assets: [{ ...config.assets[0]!, htlcAddress: "" }] };
    expect(() => resolveEvmAsset(broken, "ethereum:USDC")).toThrow(/htlcAddress of asset ethereum:USDC/);
  });
});

describe("isNativeToken", () => {
  it("knows both spellings of the native coin", () => {
    expect(isNativeToken("native")).toBe(true);
    expect(isNativeToken("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")).toBe(true);
    expect(isNativeToken(TOKEN)).toBe(false);
  });
});
