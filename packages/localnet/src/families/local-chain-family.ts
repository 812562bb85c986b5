/**
 * What the localnet needs from one chain family: start its local chains, set them up (deploy, fund), and
 * contribute its part of the solver's and the service's config and of `localnet.json`. The generic
 * localnet (localnet.ts) assembles these parts without asking which families there are; registry.ts
 * lists the families.
 */
import type { Logger } from "pino";
import type { AssetPriceConfig, PriceSourceSpec } from "htlc-solver/config/types.js";
import type { ChainConfig, SolverKeys } from "htlc-solver/chains/registry.js";
import type { LocalnetOptions } from "../localnet.js";
import type { LocalServiceChainConfig, LocalSolverAddresses } from "../service/config.js";
import type { Address } from "viem";

/** An on-chain USD price feed (AggregatorV3-shaped) the localnet runs for the solver's prices. */
export interface LocalFeed {
  chain: string;
  /** The asset symbol it prices (`btc`, `eth`, `wbtc`, `usdc`). */
  symbol: string;
  /** `BTC / USD`, as Chainlink names its feeds. */
  pair: string;
  address: Address;
  decimals: number;
}

export interface LocalnetStartContext {
  options: LocalnetOptions;
  userCount: number;
  logger: Logger;
}

/** An asset of a local chain, as pricing, strategies and inventory curves see it. */
export interface PlannedAsset {
  chain: string;
  asset: { symbol: string; decimals: number };
}

/** What a family's price configs are built from: the localnet's feeds and tickers. */
export interface LocalPricingContext {
  /** The feed of `symbol` on `chain`, or on the first chain that has one when `chain` is left out. */
  feed(symbol: string, chain?: string): PriceSourceSpec;
  /** The exchanges' tickers of a coin's USD market (none for a coin they do not list). */
  tickers(symbol: string): PriceSourceSpec[];
  /** The id of the localnet's asset of this symbol (a wrapped coin's peg names the coin's own). */
  assetIdOf(symbol: string): string;
}

/** A family's chains, started and set up, with what the rest of the localnet is built from. */
export interface StartedLocalChains<Handles, Descriptor, SolverDescriptor, UserDescriptor> {
  /** Merged into the Localnet object: what tests drive the chains with. */
  handles: Handles;
  /** Merged into `localnet.json`'s top level. */
  descriptor: Descriptor;
  /** Merged into `localnet.json`'s `solver`. */
  solverDescriptor: SolverDescriptor;
  /** Merged into each of `localnet.json`'s `users`, by index. */
  userDescriptors: UserDescriptor[];
  assets: PlannedAsset[];
  /** Coins a chain pays its fees in that the service does not trade: priced (fixed) for fees only. */
  feeCoins?: PlannedAsset[];
  /** On-chain price feeds this family's chains carry for every asset. */
  feeds: readonly LocalFeed[];
  solverChains(): ChainConfig[];
  solverKeys: Partial<SolverKeys>;
  prices(context: LocalPricingContext): Record<string, AssetPriceConfig>;
  serviceChains(): LocalServiceChainConfig[];
  solverAddresses: Partial<LocalSolverAddresses>;
  stop(): Promise<void>;
}

/** Stops what did start when one family failed to, then throws that failure. */
export async function settledOrStopped(
  results: readonly PromiseSettledResult<{ stop(): Promise<void> }>[],
): Promise<void> {
  const failed = results.find((r) => r.status === "rejected");
  if (failed === undefined) return;
  for (const result of results) if (result.status === "fulfilled") await result.value.stop();
  throw failed.reason;
}

export function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}
