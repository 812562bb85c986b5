import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
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
};

function problemsOf(file: string, env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(CHAIN_FAMILIES, { file, env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe.each(["config/testnet.example.json", "config/mainnet.example.json"])("%s", (file) => {
  it("is valid except for the contract placeholders an operator must fill in", () => {
    const problems = problemsOf(file, ENV);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatch(
        /^chains\[\d\]\.assets\[\d\]\.(htlcAddress|tokenAddress): "<[^>]+>" is not (an EVM address|base58; give the SPL mint)/,
      );
    }
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
    for (const chain of raw.chains.filter((c) => c.family === "evm" || c.family === "solana")) {
      const fillMs = chain.fillTimelockBlocks * chain.maxBlockTimeMs;
      expect(fillMs + raw.safety.timelockMarginMs).toBeLessThan(sourceMs);
    }
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
