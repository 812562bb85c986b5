/**
 * Addresses a profile leaves to the service: read from the service's asset list at start and accepted
 * only when the contracts at them are the v3 HTLC of this chain for the configured token, on a real anvil.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, type Address } from "viem";
import { createEvmPublicClient } from "../../../../src/chains/evm/client.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";
import { resolveServiceAddresses } from "../../../../src/chains/evm/service-addresses.js";
import { FROM_SERVICE } from "../../../../src/config/common-chain.js";
import type { ChainAssetInfo } from "../../../../src/orderbook/types.js";
import { deployHtlc, deployTestToken } from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { startEvmFamilyFixture, TOKEN_ASSET, type EvmFamilyFixture } from "./evm-family-fixture.js";

let f: EvmFamilyFixture;
let otherTokenHtlc: Address;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_391);
  const other = await deployTestToken(f.fx.deployer.wallet, f.fx.pub, {
    name: "Other",
    symbol: "OTH",
    decimals: 6,
  });
  otherTokenHtlc = await deployHtlc(f.fx.deployer.wallet, f.fx.pub, other);
}, 120_000);

afterAll(async () => {
  await f.stop();
});

/** The fixture's chain with its token asset's addresses left to the service. */
function leftToService(): EvmChainConfig {
  return {
    ...f.config,
    assets: f.config.assets.map((asset) =>
      asset.id === TOKEN_ASSET ? { ...asset, htlcAddress: FROM_SERVICE, tokenAddress: FROM_SERVICE } : asset,
    ),
  };
}

function listing(overrides: Partial<ChainAssetInfo> = {}): () => Promise<ChainAssetInfo[]> {
  const entry: ChainAssetInfo = {
    id: TOKEN_ASSET,
    name: "Test USD",
    chain: "anvil",
    chain_id: String(f.config.chainId),
    symbol: "TUSD",
    decimals: 6,
    token_address: f.token.toLowerCase(),
    htlc_address: f.tokenHtlc,
    fiat_value: "1",
    min_amount: "1",
    max_amount: "1000000",
    ...overrides,
  };
  return () => Promise.resolve([entry]);
}

const resolve = (serviceAssets: () => Promise<ChainAssetInfo[]>) =>
  resolveServiceAddresses(leftToService(), createEvmPublicClient(f.config), serviceAssets);

describe("addresses from the service", () => {
  it("takes the listed HTLC and token once the HTLC is this chain's v3 HTLC of that token", async () => {
    const resolved = await resolve(listing());
    const asset = resolved.assets.find((a) => a.id === TOKEN_ASSET);
    expect(asset?.htlcAddress).toBe(getAddress(f.tokenHtlc));
    expect(asset?.tokenAddress).toBe(getAddress(f.token));
  });

  it("does not read the service when no asset asks for it", async () => {
    const resolved = await resolveServiceAddresses(f.config, createEvmPublicClient(f.config), () =>
      Promise.reject(new Error("read")),
    );
    expect(resolved).toBe(f.config);
  });

  it("refuses an HTLC address without code, naming chain, asset and key", async () => {
    const empty = "0x00000000000000000000000000000000000000aa";
    await expect(resolve(listing({ htlc_address: empty }))).rejects.toThrow(
      /chain anvil, asset anvil:TUSD: htlcAddress .*has no code on chain 31391/,
    );
  });

  it("refuses the HTLC of another token", async () => {
    await expect(resolve(listing({ htlc_address: otherTokenHtlc }))).rejects.toThrow(
      /asset anvil:TUSD: htlcAddress .*holds token .*, not /,
    );
  });

  it("refuses a contract that is no HTLC (the token itself)", async () => {
    await expect(resolve(listing({ htlc_address: f.token }))).rejects.toThrow(
      /htlcAddress .*does not answer eip712Domain\(\) as an HTLC does/,
    );
  });

  it("refuses a listed token other than the one the HTLC holds", async () => {
    const config = leftToService();
    const empty = "0x00000000000000000000000000000000000000bb";
    await expect(
      resolveServiceAddresses(config, createEvmPublicClient(f.config), listing({ token_address: empty })),
    ).rejects.toThrow(/asset anvil:TUSD: htlcAddress .*holds token .*, not 0x0+bb/i);
  });

  it("refuses decimals that differ from the profile's", async () => {
    await expect(resolve(listing({ decimals: 8 }))).rejects.toThrow(
      /asset anvil:TUSD: decimals from the service refused: the service lists 8 decimals, the profile 6/,
    );
  });

  it("refuses an asset the service does not list", async () => {
    await expect(resolve(() => Promise.resolve([]))).rejects.toThrow(
      /asset anvil:TUSD: htlcAddress from the service refused: the service lists no such asset/,
    );
  });
});
