/**
 * `solver config check --online` against the localnet: its own configuration passes; a wrong chain id,
 * a token without code, a wrong Bitcoin network or a refused app id are each reported by key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { isNativeToken } from "../../../src/chains/evm/assets.js";
import { checkConfigOnline } from "../../../src/config/online-check.js";
import type { SolverConfig } from "../../../src/config/types.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";

let t: TestLocalnet;

beforeAll(async () => {
  t = await startTestLocalnet();
}, 180_000);

afterAll(async () => {
  await t.net.stop();
});

/** The localnet's config with one chain changed; `index` is where that chain is listed. */
function withChain(
  family: string,
  change: (chain: SolverConfig["chains"][number]) => SolverConfig["chains"][number],
): { config: SolverConfig; index: number } {
  const config = t.net.solverConfig;
  const index = config.chains.findIndex((c) => c.family === family);
  const chains = config.chains.map((c, i) => (i === index ? change(c) : c));
  return { config: { ...config, chains }, index };
}

describe("config check --online on the localnet", () => {
  it("finds nothing wrong with the localnet's own configuration", async () => {
    expect(await checkConfigOnline(t.net.solverConfig)).toEqual([]);
  }, 60_000);

  it("names chainId when an endpoint answers another chain id", async () => {
    const { config, index } = withChain("evm", (c) => ({ ...c, chainId: 1 }) as typeof c);
    const problems = await checkConfigOnline(config);
    expect(problems).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^chains\\[${index}\\]\\.chainId: 1 differs from rpcUrls\\[0\\], which answers chain id \\d+$`,
        ),
      ),
    );
  }, 60_000);

  it("names the token address when no contract is there", async () => {
    const empty = "0x00000000000000000000000000000000000000Aa";
    let assetIndex = -1;
    const { config, index } = withChain("evm", (c) => {
      assetIndex = c.assets.findIndex((a) => !isNativeToken(a.tokenAddress));
      return { ...c, assets: c.assets.map((a, i) => (i === assetIndex ? { ...a, tokenAddress: empty } : a)) };
    });
    const problems = await checkConfigOnline(config);
    expect(problems).toContain(
      `chains[${index}].assets[${assetIndex}].tokenAddress: ${getAddress(empty)} has no code on this chain`,
    );
  }, 60_000);

  it("names the Bitcoin network when the node follows another chain", async () => {
    const { config, index } = withChain("bitcoin", (c) => ({ ...c, network: "mainnet" }) as typeof c);
    expect(await checkConfigOnline(config)).toEqual([
      `chains[${index}].network: "mainnet" differs from rpcUrls[0], which follows "regtest"`,
    ]);
  }, 60_000);

  it("names the app id when the service refuses it", async () => {
    const config = {
      ...t.net.solverConfig,
      service: { ...t.net.solverConfig.service, appId: "not-the-app-id" },
    };
    expect(await checkConfigOnline(config)).toEqual([
      expect.stringMatching(/^service\.appId: the service refused it \(HTTP 40[13] on GET \/v2\/chains\)$/),
    ]);
  }, 60_000);
});
