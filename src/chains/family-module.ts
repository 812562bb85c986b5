/**
 * A chain family's public face: everything the rest of the solver asks of a family, in one object per
 * family (src/chains/<family>/family-module.ts), listed in src/chains/registry.ts. Generic code asks the
 * family's module; it never names a family.
 */
import type { Logger } from "pino";
import type { ChainConfigSpec } from "../config/chain-spec.js";
import type { AssetConfig, CommonChainConfig } from "../config/common-chain.js";
import type { FeedReader } from "../pricing/live/chainlink-feed.js";
import type { ChainAssetInfo } from "../orderbook/types.js";
import type { SolverChain } from "../solver/solver-chain.js";
import type { JournalView } from "./chain.js";
import type { FollowPositionsSource } from "./follow-positions.js";

export interface PreparedChain extends SolverChain {
  /** One-time work before the first fill (EVM: batching set up, token allowances for the HTLCs). */
  prepare(): Promise<void>;
}

/** A problem `config check --online` found on a chain: the chain setting it is about, and what differed. */
export interface OnlineProblem {
  /** Relative to the chain: `chainId`, `rpcUrls[0]`, `assets[1].tokenAddress`, ... */
  key: string;
  message: string;
}

/** What a family's chain is built from at start-up. */
export interface ChainStart<Config> {
  config: Config;
  /** The family's private key in its stored form (`solver.keys.<family>`). */
  key: string;
  journal: JournalView & FollowPositionsSource;
  logger: Logger;
}

/** The family's transaction terms in the journal, where they are JSON with bigints as decimal strings. */
export interface TermsCodec<Terms> {
  /**
   * The terms from a flat map of decimal strings, as journals wrote them before terms were typed, when
   * the map is this family's; null otherwise. Absent for a family that never wrote such maps.
   */
  fromLegacy?(flat: Record<string, unknown>): Terms | null;
}

export interface ChainFamilyModule<
  Name extends string = string,
  Config extends CommonChainConfig & { family: Name } = CommonChainConfig & { family: Name },
  Terms extends { family: Name } = { family: Name },
> extends ChainConfigSpec<Name, Config> {
  /** Among a chain's configured assets, its own coin, which its fees are paid in; undefined when none is. */
  coin(assets: readonly AssetConfig[]): AssetConfig | undefined;
  /** Decimals of the chain's coin (satoshis, wei, lamports), for fees counted where no coin asset is listed. */
  readonly coinDecimals: number;
  readonly terms: TermsCodec<Terms>;
  /**
   * The solver's public identities (addresses, public keys) from its key in stored form, labelled; never
   * the key. With `config`, those it has on that chain; without, those that hold on any chain of the family.
   */
  publicAccount(key: string, config?: Config): Record<string, string>;
  /** A new random private key, in the stored form `key.normalize` gives (what the key file holds). */
  newKey(): string;
  /** Reads price feeds (kind chainlink) through the chain's own endpoints; present when `readsPriceFeeds`. */
  priceFeedReader?(config: Config): FeedReader;
  /**
   * The chain's config with the addresses its profile leaves to the service ("service") read from the
   * service's asset list and checked on chain; throws naming the chain, asset and what differed. Absent
   * for a family whose addresses are always in the profile.
   */
  resolveServiceAddresses?(config: Config, serviceAssets: () => Promise<ChainAssetInfo[]>): Promise<Config>;
  /**
   * `config check --online` for one chain: each endpoint is on the configured network, and each asset's
   * contract or program and token are there and the expected ones. Never moves funds.
   */
  checkOnline?(config: Config): Promise<OnlineProblem[]>;
  /** Reader, executor and party of one configured chain, and the work to do before its first fill. */
  create(start: ChainStart<Config>): PreparedChain;
}
