/** A Starknet asset resolved from config: its token and the HTLC contract that holds it. */
import type { AssetConfig } from "../../config/common-chain.js";
import { StarknetActionError } from "./errors.js";

export interface StarknetAsset {
  id: string;
  token: string;
  htlc: string;
  config: AssetConfig;
}

export function resolveStarknetAsset(
  config: { name: string; assets: readonly AssetConfig[] },
  asset: string,
): StarknetAsset {
  const found = config.assets.find((a) => a.id === asset);
  if (found === undefined)
    throw new StarknetActionError(`asset ${asset} is not configured on Starknet chain ${config.name}`);
  return { id: found.id, token: found.tokenAddress, htlc: found.htlcAddress, config: found };
}
