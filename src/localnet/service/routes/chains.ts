/** GET /v2/chains and GET /v2/assets: the configured chains and assets in API form. */
import { NATIVE_TOKEN_ADDRESS } from "../../../chains/evm/htlc-abi.js";
import type { ChainAssetInfo, ChainInfo } from "../../../orderbook/types.js";
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
  const assets = ctx.registry.allAssets().filter((asset) => asset.chain.name === chain.name);
  const tokenAssets = assets.filter((asset) => !asset.native);
  const htlcSchemas: string[] = [];
  if (assets.some((asset) => asset.native)) htlcSchemas.push("evm:htlc");
  if (tokenAssets.length > 0) htlcSchemas.push("evm:htlc_erc20");
  const firstToken = tokenAssets[0];
  return {
    chain: chain.name,
    name: chain.name,
    id: String(chain.chainId),
    family: chain.family,
    explorer_url: chain.explorerUrl,
    confirmation_target: chain.requiredConfirmations,
    source_timelock: chain.sourceTimelock,
    destination_timelock: chain.destinationTimelock,
    supported_htlc_schemas: htlcSchemas,
    supported_token_schemas: tokenAssets.length > 0 ? ["evm:erc20"] : [],
    htlc:
      firstToken === undefined ? null : { schema: "evm:htlc_erc20", address: firstToken.config.htlcAddress },
    token: tokenAssets.length > 0 ? { schema: "evm:erc20" } : null,
    assets: assets.map(assetInfo),
  };
}

function assetInfo(asset: ResolvedAsset): ChainAssetInfo {
  return {
    id: asset.id,
    name: asset.config.name,
    chain: asset.chain.name,
    chain_id: String(asset.chain.chainId),
    symbol: asset.config.symbol,
    decimals: asset.config.decimals,
    token_address: asset.native ? NATIVE_TOKEN_ADDRESS : asset.config.tokenAddress,
    htlc_address: asset.config.htlcAddress,
    fiat_value: asset.config.priceUsd,
    min_amount: asset.config.minAmount,
    max_amount: asset.config.maxAmount,
  };
}
