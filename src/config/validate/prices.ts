/**
 * Live price sources: the exchanges' ticker settings and, per asset, where its price is read and how the
 * answers are combined. Every problem names its key, e.g. `prices.assets["a:btc"].sources[1].symbol`.
 */
import type {
  AssetPriceConfig,
  ExchangeConfig,
  ExchangeName,
  PegConfig,
  PriceSourceSpec,
  PricesConfig,
} from "../types.js";
import type { Problems } from "../errors.js";
import { describeValue } from "./checks.js";
import { checkEvmAddress, normalizeEvmAddress } from "./evm-address.js";
import { fieldsOf, isRawObject, type Fields } from "./fields.js";

export const EXCHANGES: readonly ExchangeName[] = ["binance", "coinbase", "kraken"];
export const EXCHANGE_KEYS = ["baseUrl", "timeoutMs", "maxAgeMs"];
export const ASSET_PRICE_KEYS = ["sources", "minSources", "maxDeviationBps", "peg"];
export const PEG_KEYS = ["base", "maxDeviationBps", "quotedIn"];
export const SOURCE_KINDS = ["chainlink", ...EXCHANGES, "fixed"] as const;
const MAX_BPS = 10_000;

/** The exchanges' public REST APIs; no key is needed for a ticker. */
export const EXCHANGE_DEFAULTS: Record<ExchangeName, ExchangeConfig> = {
  binance: { baseUrl: "https://api.binance.com", timeoutMs: 3_000, maxAgeMs: 60_000 },
  coinbase: { baseUrl: "https://api.coinbase.com", timeoutMs: 3_000, maxAgeMs: 60_000 },
  kraken: { baseUrl: "https://api.kraken.com", timeoutMs: 3_000, maxAgeMs: 60_000 },
};

/** Market names as the exchanges write them: letters, digits, `-`, `_`, `/`. */
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9_/-]*$/;

export interface PricesContext {
  assetIds: ReadonlySet<string>;
  evmChains: ReadonlySet<string>;
  /** Asset ids listed in fixedPrices. */
  fixedPriced: ReadonlySet<string>;
}

function readExchanges(problems: Problems, raw: unknown): Record<ExchangeName, ExchangeConfig> {
  const result = { ...EXCHANGE_DEFAULTS };
  if (!isRawObject(raw)) {
    problems.add("prices.exchanges", `${describeValue(raw)} must be an object of exchange settings`);
    return result;
  }
  for (const [name, value] of Object.entries(raw)) {
    if (!(EXCHANGES as readonly string[]).includes(name)) {
      problems.add(`prices.exchanges.${name}`, `is not a known exchange (${EXCHANGES.join(", ")})`);
      continue;
    }
    const exchange = name as ExchangeName;
    const f = fieldsOf(problems, value, `prices.exchanges.${name}`, "exchange settings");
    if (f === null) continue;
    f.onlyKeys(EXCHANGE_KEYS, "an exchange");
    const defaults = EXCHANGE_DEFAULTS[exchange];
    const baseUrl = f.httpUrl("baseUrl", { default: defaults.baseUrl });
    result[exchange] = {
      baseUrl: baseUrl === "" ? defaults.baseUrl : baseUrl.replace(/\/+$/, ""),
      timeoutMs: f.integer("timeoutMs", 1, undefined, { default: defaults.timeoutMs }),
      maxAgeMs: f.integer("maxAgeMs", 1, undefined, { default: defaults.maxAgeMs }),
    };
  }
  return result;
}

function readChainlink(f: Fields, context: PricesContext): PriceSourceSpec {
  f.onlyKeys(["kind", "chain", "feed", "maxAgeMs"], "a chainlink source");
  const chain = f.string("chain");
  if (chain !== "" && !context.evmChains.has(chain)) {
    f.problem("chain", `${describeValue(chain)} is not a configured EVM chain (the feed is read through it)`);
  }
  const feed = f.string("feed");
  const problem = feed === "" ? null : checkEvmAddress(feed);
  if (problem !== null) f.problem("feed", problem);
  return {
    kind: "chainlink",
    chain,
    feed: feed !== "" && problem === null ? normalizeEvmAddress(feed) : feed,
    maxAgeMs: f.integer("maxAgeMs", 1),
  };
}

function readSource(
  f: Fields,
  assetId: string,
  exchanges: Record<ExchangeName, ExchangeConfig>,
  context: PricesContext,
): PriceSourceSpec | null {
  const kind = f.oneOf("kind", SOURCE_KINDS);
  if (f.obj.kind !== kind) return null;
  if (kind === "chainlink") return readChainlink(f, context);
  if (kind === "fixed") {
    f.onlyKeys(["kind"], "a fixed source");
    if (!context.fixedPriced.has(assetId)) {
      f.problem("kind", `"fixed" needs a price for ${assetId} in fixedPrices`);
    }
    return { kind: "fixed" };
  }
  f.onlyKeys(["kind", "symbol", "maxAgeMs"], `a ${kind} source`);
  return {
    kind,
    symbol: f.string("symbol", { pattern: SYMBOL, hint: "must be the exchange's market name, e.g. BTCUSDT" }),
    maxAgeMs: f.integer("maxAgeMs", 1, undefined, { default: exchanges[kind].maxAgeMs }),
  };
}

function readPeg(f: Fields, assetId: string, context: PricesContext): PegConfig | null {
  const raw = f.obj.peg;
  if (raw === undefined || raw === null) return null;
  const peg = fieldsOf(f.problems, raw, f.at("peg"), "a peg");
  if (peg === null) return null;
  peg.onlyKeys(PEG_KEYS, "a peg");
  const base = peg.string("base");
  if (base === assetId) peg.problem("base", "must be another asset than the pegged one");
  else if (base !== "" && base !== "usd" && !context.assetIds.has(base)) {
    peg.problem("base", `${describeValue(base)} is neither a configured asset nor "usd"`);
  }
  return {
    base,
    maxDeviationBps: peg.integer("maxDeviationBps", 0, MAX_BPS, { default: 100 }),
    quotedIn: peg.oneOf("quotedIn", ["usd", "base"] as const, { default: "usd" }),
  };
}

function readAssetPrice(
  f: Fields,
  assetId: string,
  exchanges: Record<ExchangeName, ExchangeConfig>,
  context: PricesContext,
): AssetPriceConfig {
  f.onlyKeys(ASSET_PRICE_KEYS, "an asset's price settings");
  const sources: PriceSourceSpec[] = [];
  f.array("sources", true).forEach((value, index) => {
    const source = fieldsOf(f.problems, value, f.at("sources") + `[${index}]`, "a price source");
    const spec = source === null ? null : readSource(source, assetId, exchanges, context);
    if (spec !== null) sources.push(spec);
  });
  const count = Array.isArray(f.obj.sources) ? f.obj.sources.length : 0;
  const minSources = f.integer("minSources", 1, Math.max(1, count), {
    default: Math.max(1, Math.min(2, count)),
  });
  return {
    sources,
    minSources,
    maxDeviationBps: f.integer("maxDeviationBps", 0, MAX_BPS, { default: 100 }),
    peg: readPeg(f, assetId, context),
  };
}

/** A pegged asset is priced as its base, so the base must be priced live and not be pegged itself. */
function checkPegBases(problems: Problems, assets: Record<string, AssetPriceConfig>): void {
  for (const [id, asset] of Object.entries(assets)) {
    const base = asset.peg?.base;
    if (base === undefined || base === "usd" || base === "" || base === id) continue;
    const path = `prices.assets["${id}"].peg.base`;
    const baseConfig = assets[base];
    if (baseConfig === undefined) problems.add(path, `"${base}" has no live price sources in prices.assets`);
    else if (baseConfig.peg !== null) problems.add(path, `"${base}" is pegged itself; peg to its base`);
  }
}

export function readPrices(problems: Problems, raw: unknown, context: PricesContext): PricesConfig {
  const settings = isRawObject(raw) ? raw : {};
  const exchanges = readExchanges(problems, settings.exchanges ?? {});
  const assets: Record<string, AssetPriceConfig> = {};
  const rawAssets = settings.assets ?? {};
  if (!isRawObject(rawAssets)) {
    problems.add("prices.assets", `${describeValue(rawAssets)} must be an object of <asset id>: settings`);
  } else {
    for (const [id, value] of Object.entries(rawAssets)) {
      const path = `prices.assets["${id}"]`;
      if (!context.assetIds.has(id)) {
        problems.add(path, "is not a configured asset (<chain>:<symbol> of chains[].assets)");
        continue;
      }
      const f = fieldsOf(problems, value, path, "an asset's price settings");
      if (f !== null) assets[id] = readAssetPrice(f, id, exchanges, context);
    }
  }
  checkPegBases(problems, assets);
  // The schema's format has already reported a bad interval.
  const refreshMs = typeof settings.refreshMs === "number" ? settings.refreshMs : 0;
  return { refreshMs, exchanges, assets };
}
