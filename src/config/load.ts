/**
 * Loads the solver's configuration: schema defaults, then a JSON profile file, then the environment
 * (convict's order), then `overrides` deep-merged last. Everything found wrong is reported at once in
 * one ConfigError whose lines each name the key and the problem.
 */
import { readFileSync } from "node:fs";
import type { SolverKeys } from "../chains/registry.js";
import type { ChainConfigSpec } from "./chain-spec.js";
import { applyChainEnv } from "./chain-env.js";
import { readChains } from "./chains.js";
import { Problems } from "./errors.js";
import { readKeyFile } from "./key-file.js";
import { alternativeForms, mergeSettings } from "./merge.js";
import { isRawObject, type RawObject } from "./raw.js";
import { createSchemaConfig, solverSchema, type SettingGroup } from "./schema.js";
import { inventoryCurvesSchema } from "./sections/inventory-curves.js";
import { resolveKeys } from "./sections/keys.js";
import { fixedPricesSchema, limitsSchema } from "./sections/limits.js";
import { networkFeesSchema } from "./sections/network-fees.js";
import { pricesSchema } from "./sections/prices.js";
import { strategiesSchema } from "./sections/strategies.js";
import { checkScalarSettings, fitToSchema, stripComments } from "./settings-shape.js";
import type { SolverConfig } from "./types.js";
import { parseSettings } from "./zod/issues.js";

export interface LoadConfigOptions {
  /** JSON profile file; keys beginning with `//` are comments. */
  file?: string;
  /** Environment to read; `process.env` when absent. */
  env?: NodeJS.ProcessEnv;
  /** Plain object deep-merged over everything else (chains match by name, assets by symbol). */
  overrides?: Record<string, unknown>;
}

function readProfile(
  file: string,
  problems: Problems,
  schema: SettingGroup,
  families: readonly ChainConfigSpec[],
): RawObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.add(
      file,
      code === undefined ? `is not valid JSON (${(error as Error).message})` : `cannot be read (${code})`,
    );
    return {};
  }
  const profile = stripComments(parsed);
  if (!isRawObject(profile)) {
    problems.add(file, "must hold a JSON object of settings");
    return {};
  }
  const solver = profile.solver;
  if (isRawObject(solver) && solver.keys !== undefined) {
    problems.add(
      "solver.keys",
      `private keys are not read from the config file ${file}; set ${families.map((f) => f.key.env).join(" / ")} or use a key file (solver.keyFile)`,
    );
    const { keys: _dropped, ...rest } = solver;
    profile.solver = rest;
  }
  return fitToSchema(problems, profile, file, schema);
}

function setting<T>(raw: RawObject, path: string): T {
  let node: unknown = raw;
  for (const key of path.split(".")) node = isRawObject(node) ? node[key] : undefined;
  return node as T;
}

function readSolverKeys(
  problems: Problems,
  raw: RawObject,
  chainFamilies: ReadonlySet<string>,
  families: readonly ChainConfigSpec[],
): SolverKeys {
  const keyFile = setting<string>(raw, "solver.keyFile");
  const fromFile =
    typeof keyFile === "string" && keyFile !== "" ? readKeyFile(keyFile, problems, families) : {};
  // Environment and overrides are already in `raw`; the key file fills only what they left empty.
  const pick = (value: unknown, fallback: string | undefined) =>
    typeof value === "string" && value !== "" ? value : (fallback ?? "");
  const given = Object.fromEntries(
    families.map((f) => [f.name, pick(setting(raw, `solver.keys.${f.name}`), fromFile[f.name])]),
  );
  // One key per family of the registry the loader was given.
  return resolveKeys(problems, given, chainFamilies, families) as SolverKeys;
}

function buildConfig(problems: Problems, raw: RawObject, families: readonly ChainConfigSpec[]): SolverConfig {
  const { chains, listed } = readChains(problems, raw.chains, families);
  const assetIds = new Set(listed.flatMap((c) => c.assetIds));
  // A declared coin is priced (for fees) like an asset, and neither quoted nor held to limits.
  const pricedIds = new Set([...assetIds, ...listed.flatMap((c) => (c.coinId === null ? [] : [c.coinId]))]);
  const feedFamilies = new Set(families.filter((f) => f.readsPriceFeeds).map((f) => f.name));
  const fixedPrices = parseSettings(problems, "fixedPrices", fixedPricesSchema(pricedIds), raw.fixedPrices);
  const rawPrices = isRawObject(raw.prices) ? raw.prices : {};
  const fixedPriced = new Set(isRawObject(raw.fixedPrices) ? Object.keys(raw.fixedPrices) : []);
  const prices = parseSettings(
    problems,
    "prices",
    pricesSchema({
      assetIds: pricedIds,
      feedChains: new Set(listed.filter((c) => feedFamilies.has(c.family)).map((c) => c.name)),
      fixedPriced,
    }),
    rawPrices,
  );
  const strategies = parseSettings(
    problems,
    "strategies",
    strategiesSchema({
      assetIds,
      pricedAssets: fixedPriced,
      livePricedAssets: new Set(isRawObject(rawPrices.assets) ? Object.keys(rawPrices.assets) : []),
    }),
    raw.strategies,
  );
  const inventoryCurves = parseSettings(
    problems,
    "inventoryCurves",
    inventoryCurvesSchema(assetIds),
    raw.inventoryCurves,
  );
  const limits = parseSettings(
    problems,
    "limits",
    limitsSchema(assetIds),
    isRawObject(raw.limits) ? raw.limits : {},
  );
  const networkFees = parseSettings(problems, "networkFees", networkFeesSchema(), raw.networkFees);
  const keys = readSolverKeys(problems, raw, new Set(listed.map((c) => c.family)), families);
  // A section left undefined had problems, which the loader throws before this config is used.
  const read = <T>(value: T | undefined): T => value as T;
  return {
    service: { url: setting(raw, "service.url"), appId: setting(raw, "service.appId") },
    solver: {
      id: setting(raw, "solver.id"),
      pollIntervalMs: setting(raw, "solver.pollIntervalMs"),
      watchIntervalMs: setting(raw, "solver.watchIntervalMs"),
      orderConcurrency: setting(raw, "solver.orderConcurrency"),
      leaseTtlMs: setting(raw, "solver.leaseTtlMs"),
      shutdownDeadlineMs: setting(raw, "solver.shutdownDeadlineMs"),
      keys,
    },
    chains: chains as SolverConfig["chains"],
    fixedPrices: read(fixedPrices),
    prices: read(prices),
    strategies: read(strategies),
    inventoryCurves: read(inventoryCurves),
    limits: read(limits),
    networkFees: read(networkFees),
    safety: {
      timelockMarginMs: setting(raw, "safety.timelockMarginMs"),
      redeemDeadlineMarginMs: setting(raw, "safety.redeemDeadlineMarginMs"),
      priceToleranceBps: setting(raw, "safety.priceToleranceBps"),
      urgentRedeemFeeBps: setting(raw, "safety.urgentRedeemFeeBps"),
      allowUnenforcedSecretLength: setting(raw, "safety.allowUnenforcedSecretLength"),
    },
    journal: { path: setting(raw, "journal.path") },
    ops: { host: setting(raw, "ops.host"), port: setting(raw, "ops.port") },
    quote: {
      host: setting(raw, "quote.host"),
      port: setting(raw, "quote.port"),
      listenBacklog: setting(raw, "quote.listenBacklog"),
      keepAliveTimeoutMs: setting(raw, "quote.keepAliveTimeoutMs"),
      auth: {
        secret: setting(raw, "quote.auth.secret"),
        maxClockSkewMs: setting(raw, "quote.auth.maxClockSkewMs"),
      },
      limits: {
        maxConcurrent: setting(raw, "quote.limits.maxConcurrent"),
        perClientPerSecond: setting(raw, "quote.limits.perClientPerSecond"),
        perClientBurst: setting(raw, "quote.limits.perClientBurst"),
      },
    },
    log: { level: setting(raw, "log.level") },
  };
}

/** The configuration of a solver whose chains are of these families (src/chains/registry.ts). */
export function loadConfig(
  families: readonly ChainConfigSpec[],
  options: LoadConfigOptions = {},
): SolverConfig {
  const env = options.env ?? process.env;
  const problems = new Problems();
  const schema = solverSchema(families);
  const fromFile = options.file === undefined ? {} : readProfile(options.file, problems, schema, families);
  const fromOverrides =
    options.overrides === undefined ? {} : fitToSchema(problems, options.overrides, "overrides", schema);
  const layered = createSchemaConfig(schema, env).load(fromFile).getProperties();
  const withChainEnv = { ...layered, chains: applyChainEnv(layered.chains, env, families) };
  const raw = mergeSettings(withChainEnv, fromOverrides, alternativeForms(families)) as RawObject;
  checkScalarSettings(problems, raw, schema);
  const config = buildConfig(problems, raw, families);
  problems.throwIfAny();
  return config;
}
