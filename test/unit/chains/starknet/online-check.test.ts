import { afterEach, describe, expect, it, vi } from "vitest";
import { feltHex } from "../../../../src/chains/starknet/felt.js";
import { checkStarknetChainOnline } from "../../../../src/chains/starknet/online-check.js";
import { hash } from "starknet";
import { FakeStarknetNode, HTLC, nodeError, testConfig, TOKEN } from "./fake-node.js";

const TOKEN_SELECTOR = hash.getSelectorFromName("token");
const DECIMALS_SELECTOR = hash.getSelectorFromName("decimals");

function node(answers: { token?: string; decimals?: number } = {}): FakeStarknetNode {
  return new FakeStarknetNode()
    .on("starknet_specVersion", () => "0.9.0")
    .on("starknet_getNonce", () => "0x0")
    .on("starknet_call", (request) => {
      const [call] = request as [{ contract_address: string; entry_point_selector: string }];
      if (call.entry_point_selector === TOKEN_SELECTOR && BigInt(call.contract_address) === BigInt(HTLC))
        return [answers.token ?? feltHex(BigInt(TOKEN))];
      if (call.entry_point_selector === DECIMALS_SELECTOR && BigInt(call.contract_address) === BigInt(TOKEN))
        return [feltHex(BigInt(answers.decimals ?? 8))];
      throw nodeError(40, `no entry point ${call.entry_point_selector}`);
    });
}

afterEach(() => vi.unstubAllGlobals());

describe("the Starknet online check", () => {
  it("finds nothing wrong with a chain whose endpoint, account, HTLC and token are as configured", async () => {
    vi.stubGlobal("fetch", node().fetch);
    expect(await checkStarknetChainOnline(testConfig())).toEqual([]);
  });

  it("names an endpoint of another chain, an HTLC of another token and wrong decimals", async () => {
    const other = node();
    other.chainId = "0x534e5f4d41494e";
    vi.stubGlobal("fetch", other.fetch);
    expect(await checkStarknetChainOnline(testConfig())).toEqual([
      { key: "chainId", message: 'SN_SEPOLIA; rpcUrls[0] serves chain id "0x534e5f4d41494e"' },
    ]);
    vi.stubGlobal("fetch", node({ token: "0x1", decimals: 18 }).fetch);
    expect(await checkStarknetChainOnline(testConfig())).toEqual([
      { key: "assets[0].htlcAddress", message: `${HTLC} holds token 0x1, not ${TOKEN}` },
      { key: "assets[0].decimals", message: "8 differs from the token's 18" },
    ]);
  });
});
