/** The local service's Starknet chain settings: each bad one refused with an error naming its key. */
import { describe, expect, it } from "vitest";
import { validateLocalServiceConfig, type LocalServiceConfig } from "../../../src/service/config.js";
import type { LocalServiceStarknetChainConfig } from "../../../src/families/starknet/service/starknet-config.js";

const ADDRESS = `0x${"0a".repeat(31)}`;

function starknetChain(
  overrides: Partial<LocalServiceStarknetChainConfig> = {},
): LocalServiceStarknetChainConfig {
  return {
    name: "starknet_localnet",
    family: "starknet",
    chainId: "SN_LOCALNET",
    rpcUrl: "http://127.0.0.1:1",
    orderIdLayout: "deployed",
    relayerAddress: ADDRESS,
    relayerPrivateKey: `0x${"01".repeat(32)}`,
    requiredConfirmations: 1,
    sourceTimelock: 7200,
    destinationTimelock: 600,
    blockTimeMs: 1000,
    assets: [
      {
        symbol: "wbtc",
        name: "Wrapped BTC",
        decimals: 8,
        tokenAddress: `0x${"0b".repeat(31)}`,
        htlcAddress: `0x${"0c".repeat(31)}`,
        priceUsd: "60000",
        minAmount: "1",
        maxAmount: "10",
      },
    ],
    ...overrides,
  };
}

function config(chain: LocalServiceStarknetChainConfig, starknet = ADDRESS): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: 0,
    dbPath: ":memory:",
    appIds: ["ab".repeat(32)],
    relayerPrivateKey: `0x${"01".repeat(32)}`,
    pollIntervalMs: 500,
    chains: [chain],
    solvers: [
      {
        id: "a1",
        quoteUrl: "http://127.0.0.1:2/quote",
        addresses: { evm: `0x${"00".repeat(20)}`, starknet },
      },
    ],
  };
}

const asset = starknetChain().assets[0]!;

describe("the local service's Starknet chain config", () => {
  it("accepts a complete chain", () => {
    expect(() => validateLocalServiceConfig(config(starknetChain()))).not.toThrow();
  });

  it.each<[string, Partial<LocalServiceStarknetChainConfig>, string]>([
    ["bad RPC URL", { rpcUrl: "nope" }, "chain starknet_localnet: rpcUrl nope is not a URL"],
    [
      "chain id too long for a short string",
      { chainId: "S".repeat(32) },
      `chain starknet_localnet: chainId "${"S".repeat(32)}" is not a short string (at most 31 ASCII)`,
    ],
    [
      "unknown layout",
      { orderIdLayout: "v4" as LocalServiceStarknetChainConfig["orderIdLayout"] },
      'chain starknet_localnet: orderIdLayout "v4" must be one of deployed, audited',
    ],
    [
      "zero relayer",
      { relayerAddress: "0x0" },
      "chain starknet_localnet: relayerAddress 0x0 is the zero address",
    ],
    [
      "relayer past the prime",
      { relayerAddress: `0x${"f".repeat(64)}` },
      "relayerAddress 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff is not a Starknet address",
    ],
    [
      "short relayer key",
      { relayerPrivateKey: "0x01" },
      "chain starknet_localnet: relayerPrivateKey must be 64 hex",
    ],
    [
      "token not a felt",
      { assets: [{ ...asset, tokenAddress: "wbtc" }] },
      "chain starknet_localnet: asset wbtc tokenAddress wbtc is not a Starknet address",
    ],
  ])("refuses a %s, naming the key", (_label, overrides, message) => {
    expect(() => validateLocalServiceConfig(config(starknetChain(overrides)))).toThrow(message);
  });

  it("refuses a solver whose Starknet address is not one", () => {
    expect(() => validateLocalServiceConfig(config(starknetChain(), "0xzz"))).toThrow(
      "solver a1 addresses.starknet 0xzz is not a Starknet address",
    );
  });

  it("does not quote the relayer key in its error", () => {
    const key = `0x${"7".repeat(63)}`;
    expect(() => validateLocalServiceConfig(config(starknetChain({ relayerPrivateKey: key })))).toThrow(
      /^(?!.*7777777).*relayerPrivateKey must be 64 hex/,
    );
  });
});
