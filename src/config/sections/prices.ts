/**
 * Live price sources: the exchanges' ticker settings and, per asset, where its price is read and how the
 * answers are combined. Every problem names its key, e.g. `prices.assets["a:btc"].sources[1].symbol`.
 */
import { z } from "zod";
import { describeValue } from "../checks.js";
import { checkEvmAddress, normalizeEvmAddress } from "../evm-address.js";
import { isRawObject } from "../raw.js";
import type {
  AssetPriceConfig,
  ExchangeConfig,
  ExchangeName,
  PegConfig,
  PriceSourceSpec,
  PricesConfig,
} from "../types.js";
import { mapKey } from "../zod/issues.js";
import { settingsObject } from "../zod/objects.js";
import { assetMap, httpUrl, integer, oneOf, parseNested, setting, text } from "../zod/values.js";

export const EXCHANGES: readonly ExchangeName[] = ["binance", "coinbase", "kraken"];
const SOURCE_KINDS = ["chainlink", ...EXCHANGES, "fixed"] as const;
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
  /** Chains price feeds can be read through (their family's `readsPriceFeeds`). */
  feedChains: ReadonlySet<string>;
  /** Asset ids listed in fixedPrices. */
  fixedPriced: ReadonlySet<string>;
}

function exchangeSchema(defaults: ExchangeConfig) {
  return settingsObject(
    {
      baseUrl: httpUrl({ default: defaults.baseUrl }).transform((url) =>
        url === "" ? defaults.baseUrl : url.replace(/\/+$/, ""),
      ),
      timeoutMs: integer(1, undefined, { default: defaults.timeoutMs }),
      maxAgeMs: integer(1, undefined, { default: defaults.maxAgeMs }),
    },
    "an exchange",
  );
}

const exchangesSchema = z
  .strictObject(
    {
      binance: exchangeSchema(EXCHANGE_DEFAULTS.binance).default(EXCHANGE_DEFAULTS.binance),
      coinbase: exchangeSchema(EXCHANGE_DEFAULTS.coinbase).default(EXCHANGE_DEFAULTS.coinbase),
      kraken: exchangeSchema(EXCHANGE_DEFAULTS.kraken).default(EXCHANGE_DEFAULTS.kraken),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `is not a known exchange (${EXCHANGES.join(", ")})`
          : `${describeValue(issue.input)} must be an object of exchange settings`,
    },
  )
  .default(EXCHANGE_DEFAULTS);

function chainlinkSchema(context: PricesContext) {
  return settingsObject(
    {
      kind: z.literal("chainlink"),
      chain: text().superRefine((chain, ctx) => {
        if (chain !== "" && !context.feedChains.has(chain)) {
          const message = `${describeValue(chain)} is not a configured EVM chain (the feed is read through it)`;
          ctx.addIssue({ code: "custom", message });
        }
      }),
      feed: setting<string>((value) => {
        if (value === "") return { value: "" };
        const problem = checkEvmAddress(value);
        return problem === null ? { value: normalizeEvmAddress(value as string) } : { problem };
      }, ""),
      maxAgeMs: integer(1),
    },
    "a chainlink source",
  );
}

function sourceSchema(assetId: string, exchanges: PricesConfig["exchanges"], context: PricesContext) {
  const kindOnly = z.looseObject({ kind: oneOf(SOURCE_KINDS) });
  const fixed = settingsObject({ kind: z.literal("fixed") }, "a fixed source").superRefine((_, ctx) => {
    if (!context.fixedPriced.has(assetId)) {
      const message = `"fixed" needs a price for ${assetId} in fixedPrices`;
      ctx.addIssue({ code: "custom", path: ["kind"], message });
    }
  });
  const exchange = (kind: ExchangeName) =>
    settingsObject(
      {
        kind: z.literal(kind),
        symbol: text({ pattern: SYMBOL, hint: "must be the exchange's market name, e.g. BTCUSDT" }),
        maxAgeMs: integer(1, undefined, { default: exchanges[kind].maxAgeMs }),
      },
      `a ${kind} source`,
    );
  return z.unknown().transform((raw, ctx): PriceSourceSpec | null => {
    const read = parseNested(ctx, kindOnly, raw, null);
    if (read === null) return null;
    const schema: z.ZodType<PriceSourceSpec, unknown> =
      read.kind === "chainlink"
        ? chainlinkSchema(context)
        : read.kind === "fixed"
          ? fixed
          : exchange(read.kind);
    return parseNested<PriceSourceSpec | null>(ctx, schema, raw, null);
  });
}

function pegSchema(assetId: string, context: PricesContext) {
  return settingsObject(
    {
      base: text().superRefine((base, ctx) => {
        if (base === assetId)
          ctx.addIssue({ code: "custom", message: "must be another asset than the pegged one" });
        else if (base !== "" && base !== "usd" && !context.assetIds.has(base)) {
          const message = `${describeValue(base)} is neither a configured asset nor "usd"`;
          ctx.addIssue({ code: "custom", message });
        }
      }),
      maxDeviationBps: integer(0, MAX_BPS, { default: 100 }),
      quotedIn: oneOf(["usd", "base"], { default: "usd" }),
    },
    "a peg",
  );
}

const deviation = integer(0, MAX_BPS, { default: 100 });

function assetPriceSchema(assetId: string, exchanges: PricesConfig["exchanges"], context: PricesContext) {
  const source = sourceSchema(assetId, exchanges, context);
  return settingsObject(
    {
      sources: z.unknown().optional(),
      minSources: z.unknown().optional(),
      maxDeviationBps: z.unknown().optional(),
      peg: z.unknown().optional(),
    },
    "an asset's price settings",
  ).transform((read, ctx): AssetPriceConfig => {
    const rawSources = read.sources;
    const sources: PriceSourceSpec[] = [];
    if (rawSources === undefined) ctx.addIssue({ code: "custom", path: ["sources"], message: "is required" });
    else if (!Array.isArray(rawSources)) {
      const message = `${describeValue(rawSources)} must be an array`;
      ctx.addIssue({ code: "custom", path: ["sources"], message });
    } else if (rawSources.length === 0) {
      ctx.addIssue({ code: "custom", path: ["sources"], message: "must not be empty" });
    } else {
      rawSources.forEach((raw: unknown, index) => {
        const spec = parseNested(ctx, source, raw, null, ["sources", index]);
        if (spec !== null) sources.push(spec);
      });
    }
    const count = Array.isArray(rawSources) ? rawSources.length : 0;
    const minSources = integer(1, Math.max(1, count), { default: Math.max(1, Math.min(2, count)) });
    const peg = read.peg === undefined || read.peg === null ? null : read.peg;
    return {
      sources,
      minSources: parseNested(ctx, minSources, read.minSources, 0, ["minSources"]),
      maxDeviationBps: parseNested(ctx, deviation, read.maxDeviationBps, 0, ["maxDeviationBps"]),
      peg:
        peg === null
          ? null
          : parseNested<PegConfig | null>(ctx, pegSchema(assetId, context), peg, null, ["peg"]),
    };
  });
}

/** A pegged asset is priced as its base, so the base must be priced live and not be pegged itself. */
function checkPegBases(assets: Record<string, AssetPriceConfig>, ctx: z.RefinementCtx): void {
  for (const [id, asset] of Object.entries(assets)) {
    const base = asset.peg?.base;
    if (base === undefined || base === "usd" || base === "" || base === id) continue;
    const path = ["assets", mapKey(id), "peg", "base"];
    const baseConfig = assets[base];
    if (baseConfig === undefined)
      ctx.addIssue({ code: "custom", path, message: `"${base}" has no live price sources in prices.assets` });
    else if (baseConfig.peg !== null)
      ctx.addIssue({ code: "custom", path, message: `"${base}" is pegged itself; peg to its base` });
  }
}

const NO_PRICE: AssetPriceConfig = { sources: [], minSources: 0, maxDeviationBps: 0, peg: null };

export function pricesSchema(context: PricesContext): z.ZodType<PricesConfig, unknown> {
  return z.unknown().transform((raw, ctx): PricesConfig => {
    const settings = isRawObject(raw) ? raw : {};
    const exchanges = parseNested(ctx, exchangesSchema, settings.exchanges, EXCHANGE_DEFAULTS, ["exchanges"]);
    const assetPrices = z.unknown().transform((value, inner) => {
      const entries = parseNested(
        inner,
        assetMap(z.unknown(), null, context.assetIds, "<asset id>: settings"),
        value,
        {},
      );
      const assets: Record<string, AssetPriceConfig> = {};
      for (const [id, entry] of Object.entries(entries)) {
        const schema = assetPriceSchema(id, exchanges, context);
        assets[id] = parseNested(inner, schema, entry, NO_PRICE, [mapKey(id)]);
      }
      return assets;
    });
    const assets = parseNested(ctx, assetPrices, settings.assets ?? {}, {}, ["assets"]);
    checkPegBases(assets, ctx);
    // The schema's format has already reported a bad interval.
    const refreshMs = typeof settings.refreshMs === "number" ? settings.refreshMs : 0;
    return { refreshMs, exchanges, assets };
  });
}
