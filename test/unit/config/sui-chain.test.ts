import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
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
};

type RawChain = Record<string, unknown> & { name: string; assets: Record<string, unknown>[] };

/** The testnet profile with its Sui chain edited; the chain's index and the load's problems. */
function load(edit: (sui: RawChain) => void, env: Record<string, string> = ENV) {
  const raw = JSON.parse(readFileSync("config/testnet.example.json", "utf8")) as { chains: RawChain[] };
  const index = raw.chains.findIndex((c) => c.name === "sui_testnet");
  const sui = raw.chains[index];
  if (sui === undefined) throw new Error("no sui_testnet in the profile");
  edit(sui);
  const file = join(mkdtempSync(join(tmpdir(), "sui-")), "profile.json");
  writeFileSync(file, JSON.stringify(raw));
  try {
    return { index, config: loadConfig(CHAIN_FAMILIES, { file, env }), problems: [] as readonly string[] };
  } catch (error) {
    if (error instanceof ConfigError) return { index, config: null, problems: error.problems };
    throw error;
  }
}

describe("a Sui chain in the configuration", () => {
  it("is accepted with its coin type and ids in their stored forms", () => {
    const { config } = load(
      (sui) => (sui.packageId = "0x99865B03DD1BC03D0A6A805C454EA257C464F7ABCCCAE9CD4B621B91E7CA04DE"),
    );
    const chain = config?.chains.find((c) => c.name === "sui_testnet");
    expect(chain).toMatchObject({
      family: "sui",
      packageId: "0x99865b03dd1bc03d0a6a805c454ea257c464f7abcccae9cd4b621b91e7ca04de",
      registryInitialSharedVersions: { sui: 533475404n },
      maxGasPriceMist: 5000n,
      assets: [{ id: "sui_testnet:sui", tokenAddress: `0x${"0".repeat(63)}2::sui::SUI` }],
    });
    expect(config?.solver.keys.sui).toBe(SECRETS.suiKey);
  });

  it("names each bad key", () => {
    const { index, problems } = load((sui) => {
      sui.packageId = "0x12zz";
      sui.maxGasPriceMist = "-1";
      sui.registryInitialSharedVersions = { sui: "first", usdc: 3 };
      sui.minBlockTimeMs = 400;
      const [asset] = sui.assets;
      if (asset !== undefined) Object.assign(asset, { tokenAddress: "native", htlcAddress: "0x" });
    });
    const at = `chains[${index}]`;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^${at.replace(/[[\]]/g, "\\$&")}\\.packageId: "0x12zz" is not a Sui address`),
        ),
        expect.stringContaining(`${at}.maxGasPriceMist:`),
        expect.stringContaining(
          `${at}.registryInitialSharedVersions: sui: "first" is not a positive integer version`,
        ),
        expect.stringContaining(`${at}.assets[0].tokenAddress: "native" is not a Sui coin type`),
        expect.stringContaining(`${at}.assets[0].htlcAddress: "0x" is not a Sui address`),
      ]),
    );
  });

  it("checks cross-field rules: block times, symbols of shared versions", () => {
    const { index, problems } = load((sui) => {
      sui.registryInitialSharedVersions = { usdc: 3 };
      sui.minBlockTimeMs = 400;
      sui.maxBlockTimeMs = 400;
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        `chains[${index}].registryInitialSharedVersions.usdc: is not the symbol of an asset of this chain`,
        `chains[${index}].minBlockTimeMs: must be 1, as maxBlockTimeMs: heights on Sui are the chain's clock in ms`,
      ]),
    );
  });

  it("reports ids that are not the named network's published ones", () => {
    const other = `0x${"12".repeat(32)}`;
    const { index, problems } = load((sui) => {
      sui.packageId = other;
      const [asset] = sui.assets;
      if (asset !== undefined) asset.htlcAddress = other;
    });
    expect(problems).toEqual([
      `chains[${index}].packageId: "${other}" is not sui_testnet's published package 0x99865b03dd1bc03d0a6a805c454ea257c464f7abcccae9cd4b621b91e7ca04de`,
      `chains[${index}].assets[0].htlcAddress: "${other}" is not sui_testnet:sui's published registry 0x5c438715b7dcc02d12ab92449153a1e5ade2301620d5bf60aa748f006726d369`,
    ]);
  });

  it("refuses a key that is no Sui key without quoting it", () => {
    const { problems } = load(() => undefined, { ...ENV, SOLVER_SUI_PRIVATE_KEY: "suiprivkey1notakey" });
    expect(problems).toEqual([
      expect.stringMatching(/^solver\.keys\.sui: is not a Sui private key: .*\(value not shown\)$/),
    ]);
    expect(problems.join()).not.toContain("notakey");
  });
});
