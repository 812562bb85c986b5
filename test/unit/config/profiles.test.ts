import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { feeCoinsOf } from "../../../src/chains/coins.js";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { chainSettingKeys } from "../../../src/config/chains.js";
import { ASSET_KEYS } from "../../../src/config/common-chain.js";
import { listSettings, solverSchema } from "../../../src/config/schema.js";
import { strategyKeys } from "../../../src/config/sections/strategies.js";
import { SECRETS } from "./fixture.js";

const ENV = {
  SOLVER_SERVICE_URL: "https://api.example.org",
  SOLVER_APP_ID: SECRETS.appId,
  SOLVER_ID: "0a1b",
  SOLVER_EVM_PRIVATE_KEY: SECRETS.evmKey,
  SOLVER_BITCOIN_PRIVATE_KEY: SECRETS.bitcoinKey,
  SOLVER_SOLANA_PRIVATE_KEY: SECRETS.solanaKey,
  SOLVER_STARKNET_PRIVATE_KEY: SECRETS.starknetKey,
  SOLVER_SUI_PRIVATE_KEY: SECRETS.suiKey,
  SOLVER_CHAIN_STARKNET_SEPOLIA_ACCOUNT_ADDRESS: "0x5f1e2d",
  SOLVER_CHAIN_STARKNET_ACCOUNT_ADDRESS: "0x5f1e2d",
};

function problemsOf(
  file: string,
  env: NodeJS.ProcessEnv,
  overrides?: Record<string, unknown>,
): readonly string[] {
  try {
    loadConfig(CHAIN_FAMILIES, { file, env, overrides });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

function firstEvmChain(file: string): string {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { chains: { family: string; name: string }[] };
  return raw.chains.find((c) => c.family === "evm")?.name ?? "";
}

describe.each(["config/testnet.example.json", "config/mainnet.example.json"])("%s", (file) => {
  it("is valid as shipped, with the keys and service settings from the environment", () => {
    expect(problemsOf(file, ENV)).toEqual([]);
  });

  it("prices the fees of every chain a strategy trades on, in its own coin", () => {
    const config = loadConfig(CHAIN_FAMILIES, { file, env: ENV });
    const feeCoins = feeCoinsOf(config.chains);
    const priced = new Set([...Object.keys(config.fixedPrices), ...Object.keys(config.prices.assets)]);
    const traded = new Set(config.strategies.flatMap((s) => [s.from, s.to]).map((id) => id.split(":")[0]));
    expect(traded.size).toBeGreaterThan(0);
    for (const chain of traded) {
      const coin = feeCoins[chain ?? ""];
      expect(coin, `${chain}: no coin listed or declared (coinSymbol)`).toBeDefined();
      expect(priced.has(coin ?? ""), `${chain}: its coin ${coin} has no price`).toBe(true);
    }
  });

  it("would report a placeholder where an address belongs, naming its key", () => {
    const overrides = {
      chains: [{ name: firstEvmChain(file), assets: [{ symbol: "wbtc", htlcAddress: "<HTLC address>" }] }],
    };
    expect(problemsOf(file, ENV, overrides)).toContainEqual(
      expect.stringMatching(/^chains\[1\]\.assets\[0\]\.htlcAddress: "<HTLC address>" is not an EVM address/),
    );
  });

  it("holds no secrets: service, app id, solver id and keys come from the environment", () => {
    const problems = problemsOf(file, {});
    expect(problems).toContain(
      "service.url: is required; set SOLVER_SERVICE_URL or service.url in the config file",
    );
    expect(problems).toContain(
      "service.appId: is required; set SOLVER_APP_ID or service.appId in the config file",
    );
    expect(problems).toContain("solver.id: is required; set SOLVER_ID or solver.id in the config file");
    expect(problems.some((p) => p.startsWith("solver.keys.evm: is required"))).toBe(true);
  });

  it("keeps destination timelocks inside a 144-block Bitcoin source, at the worst block times", () => {
    const raw = JSON.parse(readFileSync(file, "utf8")) as {
      chains: {
        family: string;
        minBlockTimeMs: number;
        maxBlockTimeMs: number;
        fillTimelockBlocks: number;
      }[];
      safety: { timelockMarginMs: number };
    };
    const bitcoin = raw.chains.find((c) => c.family === "bitcoin");
    const sourceMs = 144 * (bitcoin?.minBlockTimeMs ?? 0);
    for (const chain of raw.chains.filter((c) => ["evm", "solana", "starknet", "sui"].includes(c.family))) {
      const fillMs = chain.fillTimelockBlocks * chain.maxBlockTimeMs;
      expect(fillMs + raw.safety.timelockMarginMs).toBeLessThan(sourceMs);
    }
  });
});

describe("known assets", () => {
  type RawChain = Record<string, unknown> & { name: string; assets: Record<string, unknown>[] };

  /**
   * Problems of the shipped mainnet profile after `edit`; its Solana chain's programVersion is left out so
   * that these checks do not depend on that key.
   */
  function problemsAfter(edit: (chain: (name: string) => RawChain) => void): readonly string[] {
    const raw = JSON.parse(readFileSync("config/mainnet.example.json", "utf8")) as { chains: RawChain[] };
    const chain = (name: string): RawChain => {
      const found = raw.chains.find((c) => c.name === name);
      if (found === undefined) throw new Error(`no chain ${name}`);
      return found;
    };
    delete chain("solana").programVersion;
    edit(chain);
    const file = join(mkdtempSync(join(tmpdir(), "profile-")), "mainnet.json");
    writeFileSync(file, JSON.stringify(raw));
    return problemsOf(file, ENV);
  }

  it("accept the shipped addresses", () => {
    expect(problemsAfter(() => undefined)).toEqual([]);
  });

  it("report a mint that is valid base58 but not the published one", () => {
    const wrongMint = "EPjFWyKvnpqpNH8vyzTdQMAtk8oC39aDA2wdapVvvjAT";
    const problems = problemsAfter((chain) => {
      const usdc = chain("solana").assets[1];
      if (usdc !== undefined) usdc.tokenAddress = wrongMint;
    });
    expect(problems).toEqual([
      `chains[9].assets[1].tokenAddress: "${wrongMint}" is not solana:usdc's published mint EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`,
    ]);
  });

  it("report decimals and token addresses that differ from the published token", () => {
    const problems = problemsAfter((chain) => {
      const usdc = chain("arbitrum").assets[1];
      if (usdc !== undefined)
        Object.assign(usdc, { decimals: 18, tokenAddress: "0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f" });
    });
    expect(problems).toEqual([
      "chains[2].assets[1].decimals: 18 differs from arbitrum:usdc's 6",
      "chains[2].assets[1].tokenAddress: 0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f is not arbitrum:usdc's published token 0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    ]);
  });

  it("report a chain id that is not the named network's", () => {
    const problems = problemsAfter((chain) => (chain("base").chainId = 84532));
    expect(problems).toEqual(["chains[3].chainId: 84532 is not base's chain id 8453"]);
  });
});

describe("README's Running a solver", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Running a solver"), readme.indexOf("## Safety rules"));
  const exported = [...section.matchAll(/^export (SOLVER_[A-Z_]+)=/gm)].map((m) => m[1]);

  it("sets every variable the testnet profile needs", () => {
    expect(section).toContain("cp config/testnet.example.json my-solver.json");
    for (const variable of Object.keys(ENV)) expect(exported).toContain(variable);
  });
});

describe("docs/configuration.md", () => {
  const doc = readFileSync("docs/configuration.md", "utf8");

  it("documents every setting with its environment variable", () => {
    for (const [key, spec] of listSettings(solverSchema(CHAIN_FAMILIES))) {
      expect(doc).toContain(`\`${key}\``);
      if (spec.env !== undefined) expect(doc).toContain(`\`${spec.env}\``);
    }
  });

  it("documents every chain, asset and strategy field", () => {
    const chainKeys = CHAIN_FAMILIES.flatMap((family) => chainSettingKeys(family));
    for (const field of [...chainKeys, ...ASSET_KEYS, ...strategyKeys()]) {
      expect(doc).toContain(`\`${field}\``);
    }
  });
});
