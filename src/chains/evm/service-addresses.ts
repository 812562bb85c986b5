/**
 * Assets whose HTLC or token the profile leaves to the service ("service"): at start their addresses are
 * read from the service's asset list and accepted only once the contracts at them pass the deployment
 * check. A failure stops the chain's start with an error naming the chain, the asset and what differed.
 */
import type { PublicClient } from "viem";
import { FROM_SERVICE, type AssetConfig } from "../../config/common-chain.js";
import { checkEvmAddress, normalizeEvmAddress } from "../../config/evm-address.js";
import type { ChainAssetInfo } from "../../orderbook/types.js";
import { isNativeToken } from "./assets.js";
import type { EvmChainConfig } from "./config.js";
import { htlcProblems, tokenProblems } from "./deployment-check.js";
import { NATIVE_TOKEN_ADDRESS } from "./htlc-abi.js";

export class ServiceAddressError extends Error {
  constructor(chain: string, asset: string, key: string, problem: string) {
    super(`chain ${chain}, asset ${asset}: ${key} from the service refused: ${problem}`);
    this.name = "ServiceAddressError";
  }
}

function fromService(asset: AssetConfig): boolean {
  return asset.htlcAddress === FROM_SERVICE || asset.tokenAddress === FROM_SERVICE;
}

function listedAddress(chain: string, asset: string, key: string, value: string): string {
  const problem = checkEvmAddress(value);
  if (problem !== null) throw new ServiceAddressError(chain, asset, key, problem);
  return normalizeEvmAddress(value);
}

/** The asset with the service's addresses where the profile asked for them; the service's listing must agree. */
function withListedAddresses(chain: string, asset: AssetConfig, listed: ChainAssetInfo[]): AssetConfig {
  const entry = listed.find((a) => a.id.toLowerCase() === asset.id.toLowerCase());
  if (entry === undefined)
    throw new ServiceAddressError(chain, asset.id, "htlcAddress", "the service lists no such asset");
  if (entry.decimals !== asset.decimals) {
    const problem = `the service lists ${entry.decimals} decimals, the profile ${asset.decimals}`;
    throw new ServiceAddressError(chain, asset.id, "decimals", problem);
  }
  const token =
    asset.tokenAddress !== FROM_SERVICE
      ? asset.tokenAddress
      : isNativeToken(entry.token_address)
        ? NATIVE_TOKEN_ADDRESS
        : listedAddress(chain, asset.id, "tokenAddress", entry.token_address);
  if (asset.tokenAddress !== FROM_SERVICE && !isNativeToken(entry.token_address)) {
    const listedToken = listedAddress(chain, asset.id, "tokenAddress", entry.token_address);
    if (listedToken !== asset.tokenAddress)
      throw new ServiceAddressError(chain, asset.id, "tokenAddress", `the service lists ${listedToken}`);
  }
  const htlc =
    asset.htlcAddress !== FROM_SERVICE
      ? asset.htlcAddress
      : listedAddress(chain, asset.id, "htlcAddress", entry.htlc_address);
  return { ...asset, tokenAddress: token, htlcAddress: htlc };
}

/**
 * The chain's config with every "service" address resolved and checked on chain; the config itself when
 * no asset asks the service (and the service is then not read).
 */
export async function resolveServiceAddresses(
  config: EvmChainConfig,
  client: PublicClient,
  serviceAssets: () => Promise<ChainAssetInfo[]>,
): Promise<EvmChainConfig> {
  if (!config.assets.some(fromService)) return config;
  const listed = await serviceAssets();
  const assets: AssetConfig[] = [];
  for (const asset of config.assets) {
    if (!fromService(asset)) {
      assets.push(asset);
      continue;
    }
    const resolved = withListedAddresses(config.name, asset, listed);
    const problems = [
      ...(await htlcProblems(client, config.chainId, resolved)),
      ...(await tokenProblems(client, resolved)),
    ];
    const first = problems[0];
    if (first !== undefined) throw new ServiceAddressError(config.name, asset.id, first.key, first.message);
    assets.push(resolved);
  }
  return { ...config, assets };
}
