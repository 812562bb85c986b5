/** The EVM family of the local service: HTLC and NativeHTLC contracts, ERC-20 tokens, relayed initiates. */
import { NATIVE_TOKEN_ADDRESS } from "htlc-solver/chains/evm/htlc-abi.js";
import type { LocalServiceFamily } from "../../local-family.js";
import { EvmServiceChain } from "./evm-service-chain.js";
import { isNativeToken } from "htlc-solver/chains/evm/assets.js";

export const evmServiceFamily: LocalServiceFamily<"evm"> = {
  family: "evm",
  validateChain: () => {},
  isNative: (asset) => isNativeToken(asset.tokenAddress),
  createServiceChain: (chain, parts) => new EvmServiceChain(chain, parts.relayerPrivateKey),
  apiChainId: (chain) => String(chain.chainId),
  apiSchemas: (chain, assets) => {
    const tokenAssets = chain.assets.filter((asset) => !isNativeToken(asset.tokenAddress));
    const htlcSchemas: string[] = [];
    if (assets.some((asset) => asset.native)) htlcSchemas.push("evm:htlc");
    if (tokenAssets.length > 0) htlcSchemas.push("evm:htlc_erc20");
    const firstToken = tokenAssets[0];
    return {
      supported_htlc_schemas: htlcSchemas,
      supported_token_schemas: tokenAssets.length > 0 ? ["evm:erc20"] : [],
      htlc: firstToken === undefined ? null : { schema: "evm:htlc_erc20", address: firstToken.htlcAddress },
      token: tokenAssets.length > 0 ? { schema: "evm:erc20" } : null,
    };
  },
  apiAssetAddresses: (asset) => ({
    token_address: asset.native ? NATIVE_TOKEN_ADDRESS : asset.config.tokenAddress,
    htlc_address: asset.config.htlcAddress,
  }),
  solverAddress: (solver) => solver.addresses.evm,
  sourceOwnerOptional: false,
  nativeSourceInitiatedByUser: true,
  initiateDetectSeconds: (deadlines) => deadlines.initiateDetectSeconds,
  withDelegate: (_request, side) => side,
};
