import type {
  AssetPriceConfig,
  InventoryCurve,
  PriceSourceSpec,
  PricesConfig,
  PricingStrategy,
  SolverConfig,
} from "htlc-solver/config/types.js";
import type { SolverKeys } from "htlc-solver/chains/registry.js";
import type { LocalServiceConfig, LocalSolverAddresses } from "./service/config.js";
import type {
  LocalFeed,
  LocalPricingContext,
  PlannedAsset,
  StartedLocalChains,
} from "./families/local-chain-family.js";
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, LISTEN_BACKLOG } from "htlc-solver/util/listen.js";
import { DEFAULT_MAX_CLOCK_SKEW_MS } from "htlc-solver/pricing/quote-auth.js";
import { DEFAULT_QUOTE_LIMITS } from "htlc-solver/pricing/quote-guard.js";

/** One family's started chains, as the generic config sees them. */
export type LocalChainsParts = StartedLocalChains<unknown, unknown, unknown, unknown>;

/**
 * USD per whole unit at start: the localnet feeds' and tickers' first answers, the fixed table's entries,
 * and the service's display prices.
 */
export const LOCALNET_PRICES: Record<string, string> = {
  usdc: "1",
  wbtc: "60000",
  eth: "3000",
  btc: "60000",
  sol: "150",
  strk: "0.15",
  sui: "3",
};

/** What the localnet's price sources are: its feeds on the anvil chains and its local ticker server. */
export interface LocalnetPriceSources {
  tickerUrl: string;
  feeds: readonly LocalFeed[];
}

/** A feed's answer counts for an hour; the localnet's keeper re-posts every 10 minutes. */
export const LOCALNET_FEED_MAX_AGE_MS = 3_600_000;
export const LOCALNET_FEED_HEARTBEAT_MS = 600_000;
/** Sources are read every second, so a test that moves a price sees it within a round or two. */
export const LOCALNET_PRICE_REFRESH_MS = 1_000;

/** The exchanges' names of the USD markets of each localnet coin. */
const TICKERS: Record<string, PriceSourceSpec[]> = {
  btc: [
    { kind: "binance", symbol: "BTCUSDT", maxAgeMs: 10_000 },
    { kind: "coinbase", symbol: "BTC-USD", maxAgeMs: 10_000 },
    { kind: "kraken", symbol: "XBTUSD", maxAgeMs: 10_000 },
  ],
  eth: [
    { kind: "binance", symbol: "ETHUSDT", maxAgeMs: 10_000 },
    { kind: "coinbase", symbol: "ETH-USD", maxAgeMs: 10_000 },
    { kind: "kraken", symbol: "ETHUSD", maxAgeMs: 10_000 },
  ],
  usdc: [{ kind: "coinbase", symbol: "USDC-USD", maxAgeMs: 10_000 }],
  sol: [
    { kind: "binance", symbol: "SOLUSDT", maxAgeMs: 10_000 },
    { kind: "coinbase", symbol: "SOL-USD", maxAgeMs: 10_000 },
    { kind: "kraken", symbol: "SOLUSD", maxAgeMs: 10_000 },
  ],
};

/** What each localnet account starts with, whole units: the inventory targets of the curves. */
const FUNDED_WHOLE_UNITS: Record<string, bigint> = {
  usdc: 1_000_000n,
  wbtc: 100n,
  eth: 10_000n,
  btc: 500n,
  sol: 10_000n,
  sui: 10_000n,
};

/**
 * The fee widens as inventory falls below 90% of what the solver started with: +25 bps at half, +100
 * when empty. Flat above 90%, so the small swaps of the demo and the tests keep the strategy's fee.
 */
function inventoryCurve(symbol: string, decimals: number): InventoryCurve | null {
  const whole = FUNDED_WHOLE_UNITS[symbol];
  if (whole === undefined) return null;
  return {
    target: whole * 10n ** BigInt(decimals),
    points: [
      { ratioBps: 0, extraBps: 100 },
      { ratioBps: 5_000, extraBps: 25 },
      { ratioBps: 9_000, extraBps: 0 },
    ],
  };
}

export function assetId(chain: string, symbol: string): string {
  return `${chain}:${symbol}`;
}

/** Every asset of the localnet, with its chain. */
function allAssets(families: readonly LocalChainsParts[]): PlannedAsset[] {
  return families.flatMap((family) => family.assets);
}

function strategies(families: readonly LocalChainsParts[]): PricingStrategy[] {
  const all = allAssets(families);
  const result: PricingStrategy[] = [];
  for (const from of all) {
    for (const to of all) {
      if (from.chain === to.chain) continue;
      result.push({
        from: assetId(from.chain, from.asset.symbol),
        to: assetId(to.chain, to.asset.symbol),
        minAmount: 1n,
        maxAmount: 10n ** BigInt(from.asset.decimals + 6),
        feeBps: 30,
        fixedFee: 0n,
        spreadBps: 0,
        priceSource: "live",
        estimatedTimeSeconds: 30,
        enabled: true,
      });
    }
  }
  return result;
}

/**
 * Live prices on the localnet: the median of each asset's feeds and the three exchanges' tickers, as each
 * family sets them out for its assets (pegs, how many sources must agree).
 */
function localnetPrices(families: readonly LocalChainsParts[], sources: LocalnetPriceSources): PricesConfig {
  const pricing: LocalPricingContext = {
    feed: (symbol, chain) => {
      const found = sources.feeds.find(
        (f) => f.symbol === symbol && (chain === undefined || f.chain === chain),
      );
      if (found === undefined)
        throw new Error(`the localnet has no ${symbol} feed on ${chain ?? "any chain"}`);
      return {
        kind: "chainlink",
        chain: found.chain,
        feed: found.address,
        maxAgeMs: LOCALNET_FEED_MAX_AGE_MS,
      };
    },
    tickers: (symbol) => TICKERS[symbol] ?? [],
    assetIdOf: (symbol) => {
      const found = allAssets(families).find(({ asset }) => asset.symbol === symbol);
      if (found === undefined) throw new Error(`the localnet has no ${symbol} asset`);
      return assetId(found.chain, symbol);
    },
  };
  const assets: Record<string, AssetPriceConfig> = {};
  for (const family of families) Object.assign(assets, family.prices(pricing));
  const exchange = { baseUrl: sources.tickerUrl, timeoutMs: 2_000, maxAgeMs: 10_000 };
  return {
    refreshMs: LOCALNET_PRICE_REFRESH_MS,
    exchanges: { binance: exchange, coinbase: exchange, kraken: exchange },
    assets,
  };
}

function localnetCurves(families: readonly LocalChainsParts[]): Record<string, InventoryCurve> {
  const curves: Record<string, InventoryCurve> = {};
  for (const { chain, asset } of allAssets(families)) {
    const curve = inventoryCurve(asset.symbol, asset.decimals);
    if (curve !== null) curves[assetId(chain, asset.symbol)] = curve;
  }
  return curves;
}

/**
 * Quotes on the localnet pay the live fees of its chains, with no minimum profit, so that the small
 * orders of the demos and tests still fill; a fill waits once fees rose more than half a dollar beyond
 * what its order pays. Estimates are read at the localnet's pace.
 */
export const LOCALNET_NETWORK_FEES: SolverConfig["networkFees"] = {
  minProfitUsdCents: 0n,
  refundProbabilityBps: 500,
  lossToleranceUsdCents: 50n,
  refreshMs: 500,
  // A loaded test machine can hold a chain's read for seconds; the local chains' fees barely move.
  maxAgeMs: 60_000,
  batchWindowMs: 600_000,
};

/** The solver's config on the localnet; every amount limit generous, every safety rule on. */
export function localnetSolverConfig(options: {
  families: readonly LocalChainsParts[];
  serviceUrl: string;
  appId: string;
  solverId: string;
  journalPath: string;
  quotePort: number;
  opsPort: number;
  /** The secret the service signs its quote requests with (quote.auth.secret). */
  quoteSecret: string;
  prices: LocalnetPriceSources;
}): SolverConfig {
  const { families } = options;
  const fixedPrices: Record<string, string> = {};
  const feeCoins = families.flatMap((family) => family.feeCoins ?? []);
  for (const { chain, asset } of [...allAssets(families), ...feeCoins])
    fixedPrices[assetId(chain, asset.symbol)] = LOCALNET_PRICES[asset.symbol] ?? "1";
  // Every family the localnet runs gives its key; the product's config check names one that is missing.
  const keys = Object.assign({}, ...families.map((family) => family.solverKeys)) as SolverKeys;
  return {
    service: { url: options.serviceUrl, appId: options.appId },
    solver: {
      id: options.solverId,
      pollIntervalMs: 500,
      watchIntervalMs: 100,
      orderConcurrency: 32,
      leaseTtlMs: 10_000,
      shutdownDeadlineMs: 8_000,
      keys,
    },
    chains: families.flatMap((family) => family.solverChains()),
    fixedPrices,
    prices: localnetPrices(families, options.prices),
    strategies: strategies(families),
    inventoryCurves: localnetCurves(families),
    limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
    networkFees: LOCALNET_NETWORK_FEES,
    safety: {
      timelockMarginMs: 600_000,
      redeemDeadlineMarginMs: 600_000,
      priceToleranceBps: 0,
      urgentRedeemFeeBps: 100,
      // The local service is this project's own and makes 32-byte secrets, so the demo can show EVM ->
      // Bitcoin swaps; a live profile leaves it off (docs/configuration.md).
      allowUnenforcedSecretLength: true,
    },
    journal: { path: options.journalPath },
    ops: { host: "127.0.0.1", port: options.opsPort },
    quote: {
      host: "127.0.0.1",
      port: options.quotePort,
      listenBacklog: LISTEN_BACKLOG,
      keepAliveTimeoutMs: DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      auth: { secret: options.quoteSecret, maxClockSkewMs: DEFAULT_MAX_CLOCK_SKEW_MS },
      limits: DEFAULT_QUOTE_LIMITS,
    },
    log: { level: "info" },
  };
}

export function localnetServiceConfig(options: {
  families: readonly LocalChainsParts[];
  port: number;
  dbPath: string;
  appId: string;
  relayerKey: string;
  solver: {
    id: string;
    quoteUrl: string;
    /** The solver's quote.auth.secret: the service signs its quote requests with it. */
    quoteSecret: string;
  };
}): LocalServiceConfig {
  const { families } = options;
  return {
    host: "127.0.0.1",
    port: options.port,
    dbPath: options.dbPath,
    appIds: [options.appId],
    relayerPrivateKey: options.relayerKey,
    pollIntervalMs: 500,
    chains: families.flatMap((family) => family.serviceChains()),
    solvers: [
      {
        id: options.solver.id,
        quoteUrl: options.solver.quoteUrl,
        quoteSecret: options.solver.quoteSecret,
        // Every family gives the solver's address there; the service's config check names one that is wrong.
        addresses: Object.assign(
          {},
          ...families.map((family) => family.solverAddresses),
        ) as LocalSolverAddresses,
      },
    ],
  };
}
