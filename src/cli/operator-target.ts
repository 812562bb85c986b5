/** The `--chain` and `--asset` options of the operator's sending commands, resolved against the configuration. */
import type { PreparedChain } from "../chains/family-module.js";
import type { AssetConfig } from "../config/types.js";
import { UsageError, type OptionValues } from "./command.js";
import type { ChainSession } from "./chain-session.js";

export function stringOption(values: OptionValues, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function chainOption(session: ChainSession, values: OptionValues): PreparedChain {
  const name = stringOption(values, "chain");
  const chain = session.chains.get(name);
  if (chain === undefined)
    throw new UsageError(
      `--chain ${name} is not configured (chains: ${[...session.chains.keys()].join(", ")})`,
    );
  return chain;
}

/** The asset by its symbol (or its id `<chain>:<symbol>`) on the chain. */
export function assetOption(chain: PreparedChain, values: OptionValues): AssetConfig {
  const given = stringOption(values, "asset");
  const asset = chain.config.assets.find((a) => a.symbol === given || a.id === given);
  if (asset === undefined)
    throw new UsageError(
      `--asset ${given} is not configured on ${chain.config.name} (assets: ${chain.config.assets.map((a) => a.symbol).join(", ")})`,
    );
  return asset;
}

/** How long a command waits for its transaction to be mined: ten of the chain's slowest blocks, at least a minute. */
export function minedWaitMs(chain: PreparedChain): number {
  return Math.max(60_000, chain.config.maxBlockTimeMs * 10);
}
