/**
 * Loads the solver's configuration: schema defaults, then a JSON profile file, then the environment
 * (convict's order), then `overrides` deep-merged last. Everything found wrong is reported at once in
 * one ConfigError whose lines each name the key and the problem.
 */
import { readFileSync } from "node:fs";
import { applyChainEnv } from "./chain-env.js";
import { Problems } from "./errors.js";
import { readKeyFile } from "./key-file.js";
import { mergeSettings } from "./merge.js";
import { createSchemaConfig } from "./schema.js";
import { checkScalarSettings, fitToSchema, stripComments } from "./settings-shape.js";
import type { SolverConfig } from "./types.js";
import { readChains } from "./validate/chains.js";
import { isRawObject, type RawObject } from "./validate/fields.js";
import { resolveKeys } from "./validate/keys.js";
import { readInventoryCurves } from "./validate/inventory-curves.js";
import { readFixedPrices, readLimits } from "./validate/limits.js";
import { readPrices } from "./validate/prices.js";
import { readStrategies } from "./validate/strategies.js";

export interface LoadConfigOptions {
  /** JSON profile file; keys beginning with `//` are comments. */
  file?: string;
  /** Environment to read; `process.env` when absent. */
  env?: NodeJS.ProcessEnv;
  /** Plain object deep-merged over everything else (chains match by name, assets by symbol). */
  overrides?: Record<string, unknown>;
}

function readProfile(file: string, problems: Problems): RawObject {
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
      `private keys are not read from the config file ${file}; set SOLVER_EVM_PRIVATE_KEY / SOLVER_BITCOIN_PRIVATE_KEY / SOLVER_SOLANA_PRIVATE_KEY or use a key file (solver.keyFile)`,
    );
    const { keys: _dropped, ...rest } = solver;
    profile.solver = rest;
  }
  return fitToSchema(problems, profile, file);
}

function setting<T>(raw: RawObject, path: string): T {
  let node: unknown = raw;
  for (const key of path.split(".")) node = isRawObject(node) ? node[key] : undefined;
  return node as T;
}

function readSolverKeys(problems: Problems, raw: RawObject, chains: SolverConfig["chains"]) {
  const keyFile = setting<string>(raw, "solver.keyFile");
  const fromFile = typeof keyFile === "string" && keyFile !== "" ? readKeyFile(keyFile, problems) : {};
  // Environment and overrides are already in `raw`; the key file fills only what they left empty.
  const pick = (value: unknown, fallback: string | undefined) =>
    typeof value === "string" && value !== "" ? value : (fallback ?? "");
  return resolveKeys(
    problems,
    {
      evm: pick(setting(raw, "solver.keys.evm"), fromFile.evm),
      bitcoin: pick(setting(raw, "solver.keys.bitcoin"), fromFile.bitcoin),
      solana: pick(setting(raw, "solver.keys.solana"), fromFile.solana),
    },
    chains,
  );
}

function buildConfig(problems: Problems, raw: RawObject): SolverConfig {
  const { chains, unreadAssetIds } = readChains(problems, raw.chains);
  const assetIds = new Set([...chains.flatMap((c) => c.assets.map((a) => a.id)), ...unreadAssetIds]);
  const fixedPrices = readFixedPrices(problems, raw.fixedPrices, assetIds);
  const rawPrices = isRawObject(raw.prices) ? raw.prices : {};
  const prices = readPrices(problems, rawPrices, {
    assetIds,
    evmChains: new Set(chains.filter((c) => c.family === "evm").map((c) => c.name)),
    fixedPriced: new Set(isRawObject(raw.fixedPrices) ? Object.keys(raw.fixedPrices) : []),
  });
  return {
    service: { url: setting(raw, "service.url"), appId: setting(raw, "service.appId") },
    solver: {
      id: setting(raw, "solver.id"),
      pollIntervalMs: setting(raw, "solver.pollIntervalMs"),
      watchIntervalMs: setting(raw, "solver.watchIntervalMs"),
      orderConcurrency: setting(raw, "solver.orderConcurrency"),
      leaseTtlMs: setting(raw, "solver.leaseTtlMs"),
      keys: readSolverKeys(problems, raw, chains),
    },
    chains,
    fixedPrices,
    prices,
    strategies: readStrategies(problems, raw.strategies, {
      assetIds,
      pricedAssets: new Set(isRawObject(raw.fixedPrices) ? Object.keys(raw.fixedPrices) : []),
      livePricedAssets: new Set(isRawObject(rawPrices.assets) ? Object.keys(rawPrices.assets) : []),
    }),
    inventoryCurves: readInventoryCurves(problems, raw.inventoryCurves, assetIds),
    limits: readLimits(problems, raw.limits, assetIds),
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

export function loadConfig(options: LoadConfigOptions = {}): SolverConfig {
  const env = options.env ?? process.env;
  const problems = new Problems();
  const fromFile = options.file === undefined ? {} : readProfile(options.file, problems);
  const fromOverrides =
    options.overrides === undefined ? {} : fitToSchema(problems, options.overrides, "overrides");
  const layered = createSchemaConfig(env).load(fromFile).getProperties();
  const withChainEnv = { ...layered, chains: applyChainEnv(layered.chains, env) };
  const raw = mergeSettings(withChainEnv, fromOverrides) as RawObject;
  checkScalarSettings(problems, raw);
  const config = buildConfig(problems, raw);
  problems.throwIfAny();
  return config;
}
