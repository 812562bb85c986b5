import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { TEST_ENV, validSettings } from "./fixture.js";

type Settings = Record<string, unknown>;

const STARK_KEY = `0x${"01".repeat(31)}0d`;
const ENV = { ...TEST_ENV, SOLVER_STARKNET_PRIVATE_KEY: STARK_KEY };
const SEPOLIA_WBTC = "0x496bef3ed20371382fbe0ca6a5a64252c5c848f9f1f0cccf8110fc4def912d5";
const SEPOLIA_HTLC = "0x06579d255314109429a4477d89629bc2b94f529ae01979c2f8014f9246482603";

function starknetChain(): Settings {
  return {
    family: "starknet",
    name: "starknet_localnet",
    chainId: "SN_LOCAL",
    rpcUrls: ["http://127.0.0.1:5050"],
    accountAddress: "0x1234",
    orderIdLayout: "deployed",
    minBlockTimeMs: 1000,
    maxBlockTimeMs: 30000,
    minConfirmations: 1,
    fillTimelockBlocks: 200,
    assets: [{ symbol: "wbtc", decimals: 8, tokenAddress: "0x99", htlcAddress: "0x98" }],
  };
}

function load(mutate: (chain: Settings) => void, env: NodeJS.ProcessEnv = ENV) {
  const settings = validSettings();
  const chain = starknetChain();
  mutate(chain);
  (settings.chains as Settings[]).push(chain);
  return loadConfig(CHAIN_FAMILIES, { overrides: settings, env });
}

function problemsFor(mutate: (chain: Settings) => void, env: NodeJS.ProcessEnv = ENV): readonly string[] {
  try {
    load(mutate, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("a Starknet chain in the configuration", () => {
  it("is accepted, its addresses stored zero-padded and its key normalised", () => {
    const config = load(() => undefined, {
      ...ENV,
      SOLVER_STARKNET_PRIVATE_KEY: STARK_KEY.slice(2).toUpperCase(),
    });
    const chain = config.chains.find((c) => c.name === "starknet_localnet");
    expect(chain?.family).toBe("starknet");
    if (chain?.family !== "starknet") return;
    expect(chain.accountAddress).toBe(`0x${"0".repeat(60)}1234`);
    expect(chain.assets[0]?.htlcAddress).toBe(`0x${"0".repeat(62)}98`);
    expect(chain.finality).toBe("ACCEPTED_ON_L2");
    expect(chain.escalationPercent).toBe(25);
    expect(config.solver.keys.starknet).toBe(STARK_KEY);
  });

  it.each<[string, (chain: Settings) => void, string]>([
    ["a chain id that is no short string", (c) => (c.chainId = "sn_sepolia"), "chains[2].chainId: "],
    ["a missing account", (c) => delete c.accountAddress, "chains[2].accountAddress: is required"],
    ["a zero account", (c) => (c.accountAddress = "0x0"), "chains[2].accountAddress: is the zero address"],
    [
      "an address past the prime",
      (c) => (c.accountAddress = `0x${"f".repeat(64)}`),
      "chains[2].accountAddress: ",
    ],
    ["a missing layout", (c) => delete c.orderIdLayout, "chains[2].orderIdLayout: is required"],
    ["an unknown layout", (c) => (c.orderIdLayout = "v2"), "chains[2].orderIdLayout: "],
    ["an unknown finality", (c) => (c.finality = "ACCEPTED"), "chains[2].finality: "],
    [
      "an escalation under 10%",
      (c) => (c.escalationPercent = 5),
      "chains[2].escalationPercent: 5 must be at least 10",
    ],
    ["a zero fee ceiling", (c) => (c.maxFeeFri = "0"), "chains[2].maxFeeFri: 0 must be at least 1"],
    [
      "an HTLC that is not an address",
      (c) => ((c.assets as Settings[])[0]!.htlcAddress = "htlc"),
      'chains[2].assets[0].htlcAddress: "htlc" is not a Starknet address',
    ],
    [
      "a STRK asset that is not the fee token",
      (c) =>
        (c.assets as Settings[]).push({
          symbol: "strk",
          decimals: 18,
          tokenAddress: "0x77",
          htlcAddress: "0x76",
        }),
      "chains[2].assets[1].tokenAddress: ",
    ],
  ])("names the key for %s", (_name, mutate, expected) => {
    const problems = problemsFor(mutate);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it("refuses a malformed key without quoting it", () => {
    const problems = problemsFor(() => undefined, { ...ENV, SOLVER_STARKNET_PRIVATE_KEY: "0xnotakey123" });
    expect(problems).toEqual([
      expect.stringMatching(
        /^solver\.keys\.starknet: .*is not a Stark private key: it is not 64 hex digits \(value not shown\)/,
      ),
    ]);
    expect(problems.join(" ")).not.toContain("notakey");
  });

  it("holds a chain named like a live network to its published chain id and addresses", () => {
    const problems = problemsFor((c) => {
      c.name = "starknet_sepolia";
      c.chainId = "SN_MAIN";
      c.assets = [{ symbol: "wbtc", decimals: 8, tokenAddress: SEPOLIA_WBTC, htlcAddress: "0x1" }];
    });
    expect(problems).toEqual([
      expect.stringContaining('chains[2].chainId: "SN_MAIN" is not starknet_sepolia\'s chain id SN_SEPOLIA'),
      expect.stringContaining("chains[2].assets[0].htlcAddress: "),
    ]);
    expect(
      problemsFor((c) => {
        c.name = "starknet_sepolia";
        c.chainId = "SN_SEPOLIA";
        c.assets = [{ symbol: "wbtc", decimals: 8, tokenAddress: SEPOLIA_WBTC, htlcAddress: SEPOLIA_HTLC }];
      }),
    ).toEqual([]);
  });
});
