import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { TEST_ENV, validSettings } from "./fixture.js";

type Settings = Record<string, unknown>;

const BTC = "bitcoin_regtest:btc";
const WBTC = "ethereum_localnet:wbtc";
const FEED = "0xF4030086522a5bEEa4988F8cA5B36dbC97BeE88c";

/** The fixture with live prices for BTC and a WBTC pegged to it, and a curve on WBTC. */
function liveSettings(): Settings {
  const s = validSettings();
  s.prices = {
    refreshMs: 2000,
    exchanges: { binance: { baseUrl: "http://127.0.0.1:9999/", timeoutMs: 500 } },
    assets: {
      [BTC]: {
        sources: [
          { kind: "chainlink", chain: "ethereum_localnet", feed: FEED.toLowerCase(), maxAgeMs: 3_600_000 },
          { kind: "binance", symbol: "BTCUSDT" },
          { kind: "kraken", symbol: "XBTUSD", maxAgeMs: 30_000 },
        ],
        minSources: 2,
        maxDeviationBps: 50,
      },
      [WBTC]: {
        sources: [{ kind: "coinbase", symbol: "WBTC-USD" }],
        peg: { base: BTC, maxDeviationBps: 200 },
      },
    },
  };
  s.inventoryCurves = {
    [WBTC]: {
      target: "100000000",
      points: [
        { ratioBps: 0, extraBps: 100 },
        { ratioBps: 10000, extraBps: 0 },
      ],
    },
  };
  (s.strategies as Settings[])[0]!.priceSource = "live";
  return s;
}

function problemsFor(mutate: (s: Settings) => void): readonly string[] {
  const settings = liveSettings();
  mutate(settings);
  try {
    loadConfig(CHAIN_FAMILIES, { overrides: settings, env: TEST_ENV });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const prices = (s: Settings) => s.prices as { assets: Record<string, Settings>; exchanges: Settings };
const btcSources = (s: Settings) => prices(s).assets[BTC]!.sources as Settings[];

describe("live price configuration", () => {
  it("reads sources, defaults and curves into the typed config", () => {
    const config = loadConfig(CHAIN_FAMILIES, { overrides: liveSettings(), env: TEST_ENV });
    expect(config.prices.refreshMs).toBe(2000);
    expect(config.prices.exchanges.binance).toEqual({
      baseUrl: "http://127.0.0.1:9999",
      timeoutMs: 500,
      maxAgeMs: 60_000,
    });
    expect(config.prices.exchanges.kraken.baseUrl).toBe("https://api.kraken.com");
    expect(config.prices.assets[BTC]).toEqual({
      sources: [
        { kind: "chainlink", chain: "ethereum_localnet", feed: FEED, maxAgeMs: 3_600_000 },
        { kind: "binance", symbol: "BTCUSDT", maxAgeMs: 60_000 },
        { kind: "kraken", symbol: "XBTUSD", maxAgeMs: 30_000 },
      ],
      minSources: 2,
      maxDeviationBps: 50,
      peg: null,
    });
    expect(config.prices.assets[WBTC]).toMatchObject({
      minSources: 1,
      maxDeviationBps: 100,
      peg: { base: BTC, maxDeviationBps: 200, quotedIn: "usd" },
    });
    expect(config.inventoryCurves[WBTC]?.target).toBe(100_000_000n);
    expect(config.strategies[0]).toMatchObject({ priceSource: "live", enabled: true });
  });

  const cases: [string, (s: Settings) => void, string][] = [
    [
      "a feed on a chain that is not an EVM chain",
      (s) => (btcSources(s)[0]!.chain = "bitcoin_regtest"),
      'prices.assets["bitcoin_regtest:btc"].sources[0].chain: "bitcoin_regtest" is not a configured EVM chain (the feed is read through it)',
    ],
    [
      "a feed address with a wrong checksum",
      (s) => (btcSources(s)[0]!.feed = "0xf4030086522a5bEEa4988F8cA5B36dbC97BeE88c"),
      'prices.assets["bitcoin_regtest:btc"].sources[0].feed: "0xf4030086522a5bEEa4988F8cA5B36dbC97BeE88c" has a wrong EIP-55 checksum; write it checksummed or all lower-case',
    ],
    [
      "a feed without its maximum age",
      (s) => delete btcSources(s)[0]!.maxAgeMs,
      'prices.assets["bitcoin_regtest:btc"].sources[0].maxAgeMs: is required',
    ],
    [
      "an unknown source kind",
      (s) => (btcSources(s)[1]!.kind = "bitstamp"),
      'prices.assets["bitcoin_regtest:btc"].sources[1].kind: "bitstamp" must be one of chainlink, binance, coinbase, kraken, fixed',
    ],
    [
      "more sources required than listed",
      (s) => (prices(s).assets[BTC]!.minSources = 4),
      'prices.assets["bitcoin_regtest:btc"].minSources: 4 must be at most 3',
    ],
    [
      "live sources for an asset that is not configured",
      (s) => (prices(s).assets["ethereum_localnet:usdt"] = { sources: [{ kind: "fixed" }] }),
      'prices.assets["ethereum_localnet:usdt"]: is not a configured asset (<chain>:<symbol> of chains[].assets)',
    ],
    [
      "a fixed source without a fixed price",
      (s) => (prices(s).assets["ethereum_localnet:eth"] = { sources: [{ kind: "fixed" }] }),
      'prices.assets["ethereum_localnet:eth"].sources[0].kind: "fixed" needs a price for ethereum_localnet:eth in fixedPrices',
    ],
    [
      "a peg to an asset without live sources",
      (s) => ((prices(s).assets[WBTC]!.peg as Settings).base = "ethereum_localnet:eth"),
      'prices.assets["ethereum_localnet:wbtc"].peg.base: "ethereum_localnet:eth" has no live price sources in prices.assets',
    ],
    [
      "an unknown exchange",
      (s) => (prices(s).exchanges.bitfinex = {}),
      "prices.exchanges.bitfinex: is not a known exchange (binance, coinbase, kraken)",
    ],
    [
      "a live strategy on an asset without live sources",
      (s) => delete prices(s).assets[WBTC],
      'strategies[0].to: "ethereum_localnet:wbtc" has no live price sources in prices.assets, which priceSource "live" needs',
    ],
    [
      "a pair switch that is not a boolean",
      (s) => ((s.strategies as Settings[])[0]!.enabled = "no"),
      'strategies[0].enabled: "no" must be true or false',
    ],
    [
      "curve points out of order",
      (s) => {
        const curve = (s.inventoryCurves as Record<string, { points: Settings[] }>)[WBTC]!;
        curve.points[1]!.ratioBps = 0;
      },
      'inventoryCurves["ethereum_localnet:wbtc"].points[1].ratioBps: 0 must be above the previous point\'s 0',
    ],
    [
      "a curve without a target",
      (s) => delete (s.inventoryCurves as Record<string, Settings>)[WBTC]!.target,
      'inventoryCurves["ethereum_localnet:wbtc"].target: is required',
    ],
  ];

  it.each(cases)("names the key for %s", (_name, mutate, expected) => {
    expect(problemsFor(mutate)).toEqual([expected]);
  });

  it("takes the refresh interval from the environment", () => {
    const config = loadConfig(CHAIN_FAMILIES, {
      overrides: liveSettings(),
      env: { ...TEST_ENV, SOLVER_PRICES_REFRESH_MS: "750" },
    });
    expect(config.prices.refreshMs).toBe(2000);
    const fromEnv = liveSettings();
    delete (fromEnv.prices as Settings).refreshMs;
    expect(
      loadConfig(CHAIN_FAMILIES, {
        overrides: fromEnv,
        env: { ...TEST_ENV, SOLVER_PRICES_REFRESH_MS: "750" },
      }).prices.refreshMs,
    ).toBe(750);
  });
});
