import { describe, expect, it } from "vitest";
import { validateLocalServiceConfig, type LocalServiceConfig } from "../../../src/service/config.js";
import type { LocalServiceEvmChainConfig } from "../../../src/families/evm/service/evm-config.js";
import type { LocalServiceSolanaChainConfig } from "../../../src/families/solana/service/solana-config.js";
import { localnetSolanaKey } from "../../../src/families/solana/solana-setup.js";

function config(overrides: Partial<LocalServiceConfig> = {}): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: 0,
    dbPath: ":memory:",
    appIds: ["ab".repeat(32)],
    relayerPrivateKey: `0x${"01".repeat(32)}`,
    pollIntervalMs: 500,
    chains: [
      {
        name: "alpha",
        family: "evm",
        chainId: 1,
        rpcUrl: "http://127.0.0.1:1",
        requiredConfirmations: 1,
        sourceTimelock: 100,
        destinationTimelock: 50,
        blockTimeMs: 1000,
        explorerUrl: "",
        assets: [
          {
            symbol: "usdc",
            name: "USD Coin",
            decimals: 6,
            tokenAddress: "0x0000000000000000000000000000000000000001",
            htlcAddress: "0x0000000000000000000000000000000000000002",
            priceUsd: "1",
            minAmount: "1",
            maxAmount: "10",
          },
        ],
      },
    ],
    solvers: [{ id: "a1", quoteUrl: "http://127.0.0.1:2/quote", addresses: { evm: "0x" + "00".repeat(20) } }],
    ...overrides,
  };
}

describe("validateLocalServiceConfig", () => {
  it("accepts a complete config", () => {
    expect(() => validateLocalServiceConfig(config())).not.toThrow();
  });

  it.each<[string, Partial<LocalServiceConfig>, string]>([
    ["short app id", { appIds: ["ab"] }, "appId ab is not 64 hex characters"],
    ["no app id", { appIds: [] }, "appIds is empty"],
    ["bad key", { relayerPrivateKey: "01" }, "relayerPrivateKey must be 0x followed by 64 hex"],
    [
      "bad solver url",
      { solvers: [{ id: "a1", quoteUrl: "nope", addresses: { evm: "" } }] },
      "quoteUrl nope is not a URL",
    ],
    [
      "short quote secret",
      {
        solvers: [
          {
            id: "a1",
            quoteUrl: "http://127.0.0.1:2/quote",
            quoteSecret: "too-short",
            addresses: { evm: "" },
          },
        ],
      },
      "solver a1 quoteSecret must be at least 32 characters",
    ],
  ])("names the problem: %s", (_name, overrides, message) => {
    expect(() => validateLocalServiceConfig(config(overrides))).toThrow(message);
  });

  it("refuses min above max and a duplicate chain", () => {
    const base = config();
    const chain = base.chains[0] as LocalServiceEvmChainConfig;
    const asset = chain.assets[0]!;
    const inverted = { ...chain, assets: [{ ...asset, minAmount: "11" }] };
    expect(() => validateLocalServiceConfig({ ...base, chains: [inverted] })).toThrow(
      "minAmount exceeds maxAmount",
    );
    expect(() => validateLocalServiceConfig({ ...base, chains: [chain, chain] })).toThrow(
      "chain alpha is listed twice",
    );
  });

  describe("a Solana chain", () => {
    const solana = (
      overrides: Partial<LocalServiceSolanaChainConfig> = {},
    ): LocalServiceSolanaChainConfig => ({
      name: "solana_local",
      family: "solana",
      chainId: 103,
      rpcUrl: "http://127.0.0.1:3",
      nativeProgramId: "6eksgdCnSjUaGQWZ6iYvauv1qzvYPF33RTGTM1ZuyENx",
      splProgramId: "2WXpY8havGjfRxme9LUxtjFHTh1EfU3ur4v6wiK4KdNC",
      programVersion: "current",
      relayerSecretKey: localnetSolanaKey("relayer").secretKey,
      requiredConfirmations: 1,
      sourceTimelock: 7200,
      destinationTimelock: 600,
      blockTimeMs: 400,
      assets: [
        {
          symbol: "sol",
          name: "SOL",
          decimals: 9,
          tokenAddress: "native",
          priceUsd: "150",
          minAmount: "1",
          maxAmount: "10",
        },
      ],
      ...overrides,
    });
    const withSolana = (
      chain: LocalServiceSolanaChainConfig,
      solverAddress = localnetSolanaKey("solver").address,
    ) => {
      const base = config();
      const solver = {
        ...base.solvers[0]!,
        addresses: { ...base.solvers[0]!.addresses, solana: solverAddress },
      };
      return { ...base, chains: [...base.chains, chain], solvers: [solver] };
    };

    it("is accepted with base58 programs, a relayer key and the solver's Solana address", () => {
      expect(() => validateLocalServiceConfig(withSolana(solana()))).not.toThrow();
    });

    it.each<[string, Partial<LocalServiceSolanaChainConfig>, string]>([
      ["a program id that is not base58", { splProgramId: "0xabc" }, "splProgramId 0xabc"],
      ["a relayer key that is not 64 bytes", { relayerSecretKey: "abc" }, "relayerSecretKey"],
      [
        "a program version no program speaks",
        { programVersion: "v2" as LocalServiceSolanaChainConfig["programVersion"] },
        'programVersion "v2" must be one of current, legacy',
      ],
      [
        "a mint that is not an address",
        {
          assets: [
            {
              symbol: "usdc",
              name: "USDC",
              decimals: 6,
              tokenAddress: "usdc",
              priceUsd: "1",
              minAmount: "1",
              maxAmount: "10",
            },
          ],
        },
        'asset usdc tokenAddress must be "native" or an SPL mint address',
      ],
    ])("names the problem: %s", (_name, overrides, message) => {
      expect(() => validateLocalServiceConfig(withSolana(solana(overrides)))).toThrow(message);
    });

    it("refuses a solver Solana address that is not one", () => {
      expect(() => validateLocalServiceConfig(withSolana(solana(), "0x1234"))).toThrow(
        "addresses.solana 0x1234 is not a Solana address",
      );
    });
  });
});
