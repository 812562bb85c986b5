/**
 * What the configuration asks of a chain family: its own chain settings and asset address rules, its
 * key, its endpoint environment variables. Each family's module (src/chains/<family>/family.ts) provides
 * one, and the loader is given them all; the configuration never names a family itself.
 */
import type { z } from "zod";
import type { Checked } from "./zod/values.js";
import type { AssetAddressRules, CommonChainConfig } from "./common-chain.js";

/** `T` with the keys `K` optional: settings a config built in code may leave out, which loading fills in. */
export type WithOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** Common settings whose default differs by family. */
export interface CommonChainDefaults {
  finalityDepth: number;
  bumpAfterMs: number;
  maxHeadLagBlocks: number;
  rpcTimeoutMs: number;
}

/** A per-chain environment variable `SOLVER_CHAIN_<NAME>_<suffix>` and the chain setting it sets. */
export interface EndpointVariable {
  suffix: string;
  key: string;
  /** Comma-separated list of URLs. */
  list: boolean;
  /** The other form of the same setting (one URL or a list), which the variable replaces. */
  replaces?: string;
}

/** The family's private key: where it comes from and its one stored form. */
export interface KeySpec {
  /** What it is, for the settings' documentation. */
  doc: string;
  /** Environment variable that holds it. */
  env: string;
  /** Its form in the key file, e.g. `<hex>`. */
  keyFileForm: string;
  /** The key in its stored form, or the problem with it (never quoting the key). */
  normalize(value: string): Checked<string>;
}

/** Reports a problem of one chain setting: its key and what is wrong. */
export type ReportProblem = (key: string, message: string) => void;

export interface ChainConfigSpec<
  Name extends string = string,
  Config extends CommonChainConfig = CommonChainConfig,
> {
  readonly name: Name;
  /** The family's own settings (besides the common ones) as written, with their defaults. */
  readonly fields: z.ZodObject;
  readonly commonDefaults: CommonChainDefaults;
  /** Largest destination timelock the family can express, blocks; unbounded when absent. */
  readonly maxFillTimelockBlocks?: number;
  /** How old a head may be by default, from the slowest plausible block interval. */
  defaultMaxHeadAgeMs(maxBlockTimeMs: number): number;
  /** `tokenAddress` and `htlcAddress` of an asset on this chain, checked and in their one stored form. */
  assetAddresses(chain: Config): AssetAddressRules;
  /**
   * Checks across the fields of one chain as read, its assets included, and turns settings written in
   * more than one form into their one form.
   */
  settle?(chain: Config, report: ReportProblem): void;
  /**
   * Checks of a chain read without problems against the published facts of the network its name is
   * (chain id, token addresses or mints, decimals); nothing for a name the family does not know.
   */
  checkKnownNetwork?(chain: Config, report: ReportProblem): void;
  /**
   * The setting that tells one network of this family from another (an EVM chain id): two chains with
   * the same value are the same network configured twice.
   */
  readonly networkKey?: string;
  readonly key: KeySpec;
  readonly endpointVariables: readonly EndpointVariable[];
  /** Price feeds (`prices.assets[].sources[]` of kind chainlink) can be read through this family's chains. */
  readonly readsPriceFeeds: boolean;
}
