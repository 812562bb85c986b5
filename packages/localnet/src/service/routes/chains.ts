/** GET /v2/chains and GET /v2/assets: the configured chains and assets in API form. */
import { NATIVE_TOKEN_ADDRESS } from "htlc-solver/chains/evm/htlc-abi.js";
import type { ChainAssetInfo, ChainInfo } from "htlc-solver/orderbook/types.js";
import type { LocalServiceChainConfig, LocalServiceSolanaChainConfig } from "../config.js";
import type { ServiceContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { ApiRequest } from "../http/router.js";
import { isNativeToken, type ResolvedAsset } from "../registry.js";

/** The token address the API shows for Bitcoin's coin (the solver's config names it the same way). */
const BITCOIN_TOKEN_ADDRESS = "primary";

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
  const common = {
    chain: chain.name,
    name: chain.name,
    id: chainIdOf(chain),
    family: chain.family,
    explorer_url: chain.explorerUrl ?? "",
    confirmation_target: chain.requiredConfirmations,
    source_timelock: chain.sourceTimelock,
    destination_timelock: chain.destinationTimelock,
    assets: assets.map(assetInfo),
  };
  if (chain.family === "bitcoin") {
    // The HTLC is a Taproot script, not a contract: the interface (docs/service-api.md) names no schema
    // for it.
    return { ...common, supported_htlc_schemas: [], supported_token_schemas: [], htlc: null, token: null };
  }
  if (chain.family === "solana") return { ...common, ...solanaSchemas(chain) };
  const tokenAssets = chain.assets.filter((asset) => !isNativeToken(asset.tokenAddress));
  const htlcSchemas: string[] = [];
  if (assets.some((asset) => asset.native)) htlcSchemas.push("evm:htlc");
  if (tokenAssets.length > 0) htlcSchemas.push("evm:htlc_erc20");
  const firstToken = tokenAssets[0];
  return {
    ...common,
    supported_htlc_schemas: htlcSchemas,
    supported_token_schemas: tokenAssets.length > 0 ? ["evm:erc20"] : [],
    htlc: firstToken === undefined ? null : { schema: "evm:htlc_erc20", address: firstToken.htlcAddress },
    token: tokenAssets.length > 0 ? { schema: "evm:erc20" } : null,
  };
}

/**
 * The interface's Solana schema names (docs/service-api.md): `solana:htlc` (SOL), `solana:htlc_spltoken`
 * and `solana:spltoken` (tokens).
 */
function solanaSchemas(chain: LocalServiceSolanaChainConfig) {
  const hasNative = chain.assets.some((a) => a.tokenAddress === "native");
  const hasTokens = chain.assets.some((a) => a.tokenAddress !== "native");
  return {
    supported_htlc_schemas: [
      ...(hasNative ? ["solana:htlc"] : []),
      ...(hasTokens ? ["solana:htlc_spltoken"] : []),
    ],
    supported_token_schemas: hasTokens ? ["solana:spltoken"] : [],
    htlc: hasTokens
      ? { schema: "solana:htlc_spltoken", address: chain.splProgramId }
      : { schema: "solana:htlc", address: chain.nativeProgramId },
    token: hasTokens ? { schema: "solana:spltoken" } : null,
  };
}

/** EVM and Solana: the chain id; Bitcoin: the network name. */
function chainIdOf(chain: LocalServiceChainConfig): string {
  return chain.family === "bitcoin" ? chain.network : String(chain.chainId);
}

function assetInfo(asset: ResolvedAsset): ChainAssetInfo {
  const common = {
    id: asset.id,
    name: asset.config.name,
    chain: asset.chain.name,
    chain_id: chainIdOf(asset.chain),
    symbol: asset.config.symbol,
    decimals: asset.config.decimals,
    fiat_value: asset.config.priceUsd,
    min_amount: asset.config.minAmount,
    max_amount: asset.config.maxAmount,
  };
  if (asset.family === "bitcoin")
    return { ...common, token_address: BITCOIN_TOKEN_ADDRESS, htlc_address: "" };
  if (asset.family === "solana") {
    // SOL shows as `native`, tokens by their mint; the HTLC is the asset's program.
    const program = asset.native ? asset.chain.nativeProgramId : asset.chain.splProgramId;
    return { ...common, token_address: asset.config.tokenAddress, htlc_address: program };
  }
  return {
    ...common,
    token_address: asset.native ? NATIVE_TOKEN_ADDRESS : asset.config.tokenAddress,
    htlc_address: asset.config.htlcAddress,
  };
}
