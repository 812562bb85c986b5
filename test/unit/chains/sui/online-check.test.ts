import { afterEach, describe, expect, it, vi } from "vitest";
import { SUI_COIN_TYPE } from "../../../../src/chains/sui/address.js";
import { checkSuiChainOnline } from "../../../../src/chains/sui/online-check.js";
import { digest, FakeSuiNode, PACKAGE, REGISTRY, testConfig } from "./fake-node.js";

/** A node that also holds the package; `registryType` replaces the registry's type. */
function liveNode(registryType?: string): FakeSuiNode {
  const node = new FakeSuiNode();
  const objects = node.handlers.sui_getObject!;
  node.on("sui_getObject", (params) => {
    if (params[0] === PACKAGE)
      return { data: { objectId: PACKAGE, version: "1", digest: digest(), type: "package" } };
    const answer = objects(params) as { data?: { type?: string } };
    if (params[0] === REGISTRY && registryType !== undefined && answer.data !== undefined)
      answer.data.type = registryType;
    return answer;
  });
  return node;
}

afterEach(() => vi.unstubAllGlobals());

describe("Sui config check --online", () => {
  it("finds the package on every endpoint and the asset's registry of its coin type", async () => {
    vi.stubGlobal("fetch", liveNode().fetch);
    expect(await checkSuiChainOnline(testConfig())).toEqual([]);
  });

  it("names an endpoint without the package, and a registry of another coin type", async () => {
    vi.stubGlobal("fetch", new FakeSuiNode().fetch);
    expect(await checkSuiChainOnline(testConfig())).toEqual([
      {
        key: "rpcUrls[0]",
        message: `holds no package ${PACKAGE}: not this network, or the package id is wrong`,
      },
    ]);
    const other = `${PACKAGE}::AtomicSwap::OrdersRegistry<0x${"d5".repeat(32)}::usdc::USDC>`;
    vi.stubGlobal("fetch", liveNode(other).fetch);
    expect(await checkSuiChainOnline(testConfig())).toEqual([
      {
        key: "assets[0].htlcAddress",
        message: `${REGISTRY} is not a ${PACKAGE}::AtomicSwap::OrdersRegistry<${SUI_COIN_TYPE}> here`,
      },
    ]);
  });

  it("names a configured initial shared version the registry does not have", async () => {
    vi.stubGlobal("fetch", liveNode().fetch);
    expect(await checkSuiChainOnline(testConfig({ registryInitialSharedVersions: { sui: 41n } }))).toEqual([
      {
        key: "registryInitialSharedVersions.sui",
        message: "41 differs from the registry's initial shared version 42",
      },
    ]);
  });
});
