/** GET /v2/chains and GET /v2/assets: the configured chains and assets in API form. */
import type { ChainAssetInfo, ChainInfo } from "htlc-solver/orderbook/types.js";
import { familyOfAsset, familyOfChain } from "../../families/registry.js";
import type { LocalServiceChainConfig } from "../config.js";
import type { ServiceContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { ApiRequest } from "../http/router.js";
import type { ResolvedAsset } from "../registry.js";

export function getChains(ctx: ServiceContext): Promise<ChainInfo[]> {
  return Promise.resolve(ctx.registry.allChains().map((chain) => chainInfo(ctx, chain)));
}

export function getAssets(ctx: ServiceContext, request: ApiRequest): Promise<ChainAssetInfo[]> {
  const chain = request.query.get("chain");
  if (chain !== null && ctx.registry.chain(chain) === undefined) {
    throw badRequest(`chain ${chain} is not a supported chain`);
  }
  const assets = ctx.registry.allAssets().filter((asset) => chain === null || asset.chain.name === chain);
  return Promise.resolve(assets.map(assetInfo));
}

function chainInfo(ctx: ServiceContext, chain: LocalServiceChainConfig): ChainInfo {
  const family = familyOfChain(chain);
  const assets = ctx.registry.allAssets().filter((asset) => asset.chain.name === chain.name);
  return {
    chain: chain.name,
    name: chain.name,
    id: family.apiChainId(chain),
    family: chain.family,
    explorer_url: chain.explorerUrl ?? "",
    confirmation_target: chain.requiredConfirmations,
    source_timelock: chain.sourceTimelock,
    destination_timelock: chain.destinationTimelock,
    assets: assets.map(assetInfo),
    ...family.apiSchemas(chain, assets),
  };
}

function assetInfo(asset: ResolvedAsset): ChainAssetInfo {
  const family = familyOfAsset(asset);
  return {
    id: asset.id,
    name: asset.config.name,
    chain: asset.chain.name,
    chain_id: family.apiChainId(asset.chain),
    symbol: asset.config.symbol,
    decimals: asset.config.decimals,
    fiat_value: asset.config.priceUsd,
    min_amount: asset.config.minAmount,
    max_amount: asset.config.maxAmount,
    ...family.apiAssetAddresses(asset),
  };
}
