import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { base58Encode } from "../../../src/chains/solana/base58.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import type { SolverConfig } from "../../../src/config/types.js";
import { SECRETS, TEST_ENV, validSettings } from "./fixture.js";
import type { SolanaChainConfig } from "../../../src/chains/solana/config.js";

type Settings = Record<string, unknown>;

const NATIVE_PROGRAM = "6eksgdCnSjUaGQWZ6iYvauv1qzvYPF33RTGTM1ZuyENx";
const SPL_PROGRAM = "2WXpY8havGjfRxme9LUxtjFHTh1EfU3ur4v6wiK4KdNC";
// The published devnet USDC mint: a chain named solana_testnet is checked against the known mints.
const MINT = "5JbWjyLdYKTuykpq2itWbdRcZkhK3hs6fiH62pkmLYZi";
const solverKey = Keypair.generate();
const SOLANA_ENV: NodeJS.ProcessEnv = {
  ...TEST_ENV,
  SOLVER_SOLANA_PRIVATE_KEY: base58Encode(solverKey.secretKey),
};

function solanaChain(): Settings {
  return {
    family: "solana",
    name: "solana_testnet",
    chainId: 103,
    rpcUrls: ["https://api.devnet.solana.com"],
    nativeProgramId: NATIVE_PROGRAM,
    splProgramId: SPL_PROGRAM,
    minBlockTimeMs: 350,
    maxBlockTimeMs: 600,
    minConfirmations: 32,
    fillTimelockBlocks: 12_000,
    assets: [
      { symbol: "sol", decimals: 9, tokenAddress: "native" },
      { symbol: "usdc", decimals: 6, tokenAddress: MINT },
    ],
  };
}

/** The settings with a Solana chain, as a profile file (the layer per-chain variables apply over). */
function load(mutate: (chain: Settings) => void = () => undefined, env = SOLANA_ENV): SolverConfig {
  const settings = validSettings();
  const chain = solanaChain();
  mutate(chain);
  (settings.chains as Settings[]).push(chain);
  const file = join(mkdtempSync(join(tmpdir(), "solana-config-")), "profile.json");
  writeFileSync(file, JSON.stringify(settings));
  return loadConfig(CHAIN_FAMILIES, { file, env });
}

function problemsOf(mutate: (chain: Settings) => void, env = SOLANA_ENV): readonly string[] {
  try {
    load(mutate, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("a Solana chain in the configuration", () => {
  it("reads programs, assets (HTLC program per asset), defaults and the key", () => {
    const config = load();
    const chain = config.chains[2] as SolanaChainConfig;
    expect(chain).toMatchObject({
      family: "solana",
      chainId: 103,
      commitment: "confirmed",
      programVersion: "current",
      bumpAfterMs: 30_000,
      maxHeadLagBlocks: 75,
      computeUnitPriceFloorMicroLamports: 0n,
      computeUnitPriceCeilingMicroLamports: 1_000_000n,
    });
    expect(chain.assets.map((a) => [a.id, a.tokenAddress, a.htlcAddress])).toEqual([
      ["solana_testnet:sol", "native", NATIVE_PROGRAM],
      ["solana_testnet:usdc", MINT, SPL_PROGRAM],
    ]);
    expect(config.solver.keys.solana).toBe(base58Encode(solverKey.secretKey));
  });

  it("takes the legacy programs' version", () => {
    const chain = load((c) => (c.programVersion = "legacy")).chains[2] as SolanaChainConfig;
    expect(chain.programVersion).toBe("legacy");
  });

  it("takes the key as solana-keygen writes it, and endpoints from the chain's environment variable", () => {
    const config = load(() => undefined, {
      ...TEST_ENV,
      SOLVER_SOLANA_PRIVATE_KEY: JSON.stringify([...solverKey.secretKey]),
      SOLVER_CHAIN_SOLANA_TESTNET_RPC_URLS: "https://a.example.org, https://b.example.org",
    });
    expect(config.solver.keys.solana).toBe(base58Encode(solverKey.secretKey));
    expect((config.chains[2] as SolanaChainConfig).rpcUrls).toEqual([
      "https://a.example.org",
      "https://b.example.org",
    ]);
  });

  it.each<[string, (chain: Settings) => void, string]>([
    [
      "a program id that is not base58",
      (c) => (c.nativeProgramId = "0xdeadbeef"),
      'chains[2].nativeProgramId: "0xdeadbeef" is not base58',
    ],
    [
      "one program for both",
      (c) => (c.splProgramId = NATIVE_PROGRAM),
      "chains[2].splProgramId: must differ from nativeProgramId",
    ],
    [
      "a mint that is not an address",
      (c) => ((c.assets as Settings[])[1]!.tokenAddress = "usdc"),
      'chains[2].assets[1].tokenAddress: "usdc" decodes to 3 bytes, not the 32 of a Solana address; give the SPL mint or "native"',
    ],
    [
      "an HTLC other than the chain's program",
      (c) => ((c.assets as Settings[])[0]!.htlcAddress = SPL_PROGRAM),
      `chains[2].assets[0].htlcAddress: "${SPL_PROGRAM}" must be the chain's nativeProgramId ${NATIVE_PROGRAM}, or be left out`,
    ],
    [
      "a price floor above the ceiling",
      (c) => ((c.computeUnitPriceFloorMicroLamports = "20"), (c.computeUnitPriceCeilingMicroLamports = "10")),
      "chains[2].computeUnitPriceFloorMicroLamports: 20 must not exceed computeUnitPriceCeilingMicroLamports",
    ],
    [
      "a program version the solver does not speak",
      (c) => (c.programVersion = "v2"),
      'chains[2].programVersion: "v2" must be one of current, legacy',
    ],
    [
      "a commitment the solver does not read at",
      (c) => (c.commitment = "processed"),
      'chains[2].commitment: "processed" must be one of confirmed, finalized',
    ],
    [
      "a setting of another family",
      (c) => (c.network = "devnet"),
      "chains[2].network: is not a setting of a solana chain",
    ],
    ["no chain id", (c) => delete c.chainId, "chains[2].chainId: is required"],
  ])("names the key for %s", (_name, mutate, expected) => {
    expect(problemsOf(mutate)).toEqual([expected]);
  });

  it("requires the Solana key by its variable, and never quotes a bad one", () => {
    expect(problemsOf(() => undefined, TEST_ENV)).toEqual([
      "solver.keys.solana: is required for the solana chains; set SOLVER_SOLANA_PRIVATE_KEY or put it in the key file (SOLVER_KEY_FILE)",
    ]);
    const seedOnly = base58Encode(solverKey.secretKey.slice(0, 32));
    const problems = problemsOf(() => undefined, { ...TEST_ENV, SOLVER_SOLANA_PRIVATE_KEY: seedOnly });
    expect(problems).toEqual([
      "solver.keys.solana: is not a Solana secret key: it holds 32 bytes, not the 64 of a Solana secret key (value not shown)",
    ]);
    expect(problems.join("\n")).not.toContain(seedOnly);
    expect(SECRETS.appId).not.toBe(seedOnly);
  });
});
