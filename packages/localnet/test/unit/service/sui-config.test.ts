/** The local service's Sui chain settings: each bad one refused with an error naming its key. */
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { describe, expect, it } from "vitest";
import { validateLocalServiceConfig, type LocalServiceConfig } from "../../../src/service/config.js";
import type { LocalServiceSuiChainConfig } from "../../../src/families/sui/service/sui-config.js";

const RELAYER = Ed25519Keypair.fromSecretKey(new Uint8Array(32).fill(7));
const SOLVER = `0x${"0a".repeat(32)}`;
const SUI_TYPE = `0x${"0".repeat(63)}2::sui::SUI`;

function suiChain(overrides: Partial<LocalServiceSuiChainConfig> = {}): LocalServiceSuiChainConfig {
  return {
    name: "sui_localnet",
    family: "sui",
    chainId: "sui_localnet",
    rpcUrl: "http://127.0.0.1:1",
    packageId: `0x${"0b".repeat(32)}`,
    relayerAddress: RELAYER.toSuiAddress(),
    relayerPrivateKey: RELAYER.getSecretKey(),
    requiredConfirmations: 1,
    sourceTimelock: 7_200_000,
    destinationTimelock: 600_000,
    blockTimeMs: 250,
    assets: [
      {
        symbol: "sui",
        name: "Sui",
        decimals: 9,
        coinType: SUI_TYPE,
        registryId: `0x${"0c".repeat(32)}`,
        registryInitialSharedVersion: "3",
        priceUsd: "3",
        minAmount: "1",
        maxAmount: "10",
      },
    ],
    ...overrides,
  };
}

function config(chain: LocalServiceSuiChainConfig, sui = SOLVER): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: 0,
    dbPath: ":memory:",
    appIds: ["ab".repeat(32)],
    relayerPrivateKey: `0x${"01".repeat(32)}`,
    pollIntervalMs: 500,
    chains: [chain],
    solvers: [
      { id: "a1", quoteUrl: "http://127.0.0.1:2/quote", addresses: { evm: `0x${"00".repeat(20)}`, sui } },
    ],
  };
}

const asset = suiChain().assets[0]!;

describe("the local service's Sui chain config", () => {
  it("accepts a complete chain", () => {
    expect(() => validateLocalServiceConfig(config(suiChain()))).not.toThrow();
  });

  it.each<[string, Partial<LocalServiceSuiChainConfig>, string]>([
    ["bad RPC URL", { rpcUrl: "nope" }, "chain sui_localnet: rpcUrl nope is not a URL"],
    [
      "short package id",
      { packageId: "0x2" },
      "chain sui_localnet: packageId 0x2 is not a Sui address (0x and 64 hex)",
    ],
    [
      "zero relayer address",
      { relayerAddress: `0x${"0".repeat(64)}` },
      `chain sui_localnet: relayerAddress 0x${"0".repeat(64)} is the zero address`,
    ],
    [
      "relayer key that is no key",
      { relayerPrivateKey: "secret-value" },
      "chain sui_localnet: relayerPrivateKey is neither suiprivkey… nor 64 hex digits (value not shown)",
    ],
    [
      "source timelock over the module's 7 days",
      { sourceTimelock: 604_800_001 },
      "chain sui_localnet: sourceTimelock 604800001 exceeds the module's 604800000 ms (7 days)",
    ],
    [
      "coin type not in full",
      { assets: [{ ...asset, coinType: "0x2::sui::SUI" }] },
      "chain sui_localnet: asset sui coinType 0x2::sui::SUI is not a coin type in full",
    ],
    [
      "registry that is no object id",
      { assets: [{ ...asset, registryId: "registry" }] },
      "chain sui_localnet: asset sui registryId registry is not a Sui address (0x and 64 hex)",
    ],
    [
      "registry version that is no version",
      { assets: [{ ...asset, registryInitialSharedVersion: "0" }] },
      "chain sui_localnet: asset sui registryInitialSharedVersion must be a positive integer",
    ],
  ])("refuses a %s", (_what, overrides, message) => {
    expect(() => validateLocalServiceConfig(config(suiChain(overrides)))).toThrow(message);
  });

  it("refuses a solver Sui address that is not one, naming it", () => {
    expect(() => validateLocalServiceConfig(config(suiChain(), "0xabc"))).toThrow(
      "solver a1 addresses.sui 0xabc is not a Sui address (0x and 64 hex)",
    );
  });

  it("never quotes the relayer's key", () => {
    const key = RELAYER.getSecretKey();
    const bad = `${key}x`;
    expect(() => validateLocalServiceConfig(config(suiChain({ relayerPrivateKey: bad })))).toThrow(
      "relayerPrivateKey is not a valid suiprivkey Bech32 string (value not shown)",
    );
    try {
      validateLocalServiceConfig(config(suiChain({ relayerPrivateKey: bad })));
    } catch (error) {
      expect((error as Error).message).not.toContain(key.slice(10));
    }
  });
});
