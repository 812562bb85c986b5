import type {
  AssetPriceConfig,
  InventoryCurve,
  PriceSourceSpec,
  PricesConfig,
  PricingStrategy,
  SolverConfig,
} from "htlc-solver/config/types.js";
import type {
  LocalServiceBitcoinChainConfig,
  LocalServiceConfig,
  LocalServiceSolanaChainConfig,
} from "./service/config.js";
import { LOCALNET_BITCOIN_TIMING } from "./families/bitcoin/bitcoin-setup.js";
import { LOCALNET_SOLANA_TIMING } from "./families/solana/solana-setup.js";
import type { DeployedAsset } from "./families/evm/evm-setup.js";
import type { LocalFeed } from "./price-feeds.js";
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, LISTEN_BACKLOG } from "htlc-solver/util/listen.js";
import { DEFAULT_MAX_CLOCK_SKEW_MS } from "htlc-solver/pricing/quote-auth.js";
import { DEFAULT_QUOTE_LIMITS } from "htlc-solver/pricing/quote-guard.js";
import type { BitcoinChainConfig } from "htlc-solver/chains/bitcoin/config.js";
import type { EvmChainConfig } from "htlc-solver/chains/evm/config.js";
import type { SolanaChainConfig } from "htlc-solver/chains/solana/config.js";

export interface LocalEvmChainPlan {
  name: string;
  chainId: number;
  rpcUrl: string;
  assets: DeployedAsset[];
  /** The BatchExecutor the solver's account delegates to, so that its fills batch; absent: fills go alone. */
  batchExecutor?: string;
}

export interface LocalBitcoinChainPlan {
  name: string;
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

export interface LocalSolanaChainPlan {
  name: string;
  /** The chain id hashed into Solana swap ids. */
  chainId: number;
  rpcUrl: string;
  nativeProgramId: string;
  splProgramId: string;
  /** The USDC-like SPL mint. */
  usdcMint: string;
  /** Slots. */
  sourceTimelock: number;
  /** Slots; also the timelock the solver sets when it fills here. */
  destinationTimelock: number;
}

/** The Solana assets of the localnet: SOL and a USDC-like token of the plan's mint. */
export function solanaAssets(plan: LocalSolanaChainPlan) {
  return [
    { symbol: "sol", name: "SOL (localnet)", decimals: 9, tokenAddress: "native" },
    { symbol: "usdc", name: "USD Coin (localnet Solana)", decimals: 6, tokenAddress: plan.usdcMint },
  ];
}

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

/** The Bitcoin asset, in the shape the EVM assets have for pricing. */
const BTC_ASSET = { symbol: "btc", name: "Bitcoin (regtest)", decimals: 8 };

/** Localnet chain timing: anvil mines one block a second. */
export const LOCALNET_TIMING = {
  blockTimeMs: 1000,
  sourceTimelock: 7200,
  destinationTimelock: 600,
  requiredConfirmations: 1,
  /** The solver follows its transactions three blocks deep: a reorg test has room below that. */
  finalityDepth: 3,
};

export function assetId(chain: string, symbol: string): string {
  return `${chain}:${symbol}`;
}

interface PlannedAsset {
  chain: string;
  asset: { symbol: string; decimals: number };
}

/** Every asset of the localnet, with its chain. */
function allAssets(
  chains: LocalEvmChainPlan[],
  bitcoin: LocalBitcoinChainPlan,
  solana: LocalSolanaChainPlan,
): PlannedAsset[] {
  return [
    ...chains.flatMap((c) => c.assets.map((a) => ({ chain: c.name, asset: a }))),
    { chain: bitcoin.name, asset: BTC_ASSET },
    ...solanaAssets(solana).map((asset) => ({ chain: solana.name, asset })),
  ];
}

function strategies(
  chains: LocalEvmChainPlan[],
  bitcoin: LocalBitcoinChainPlan,
  solana: LocalSolanaChainPlan,
): PricingStrategy[] {
  const all = allAssets(chains, bitcoin, solana);
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
 * Live prices on the localnet: the median of the asset's feed on its chain (Bitcoin's on the first anvil
 * chain) and the three exchanges' tickers; wrapped BTC behind a de-peg guard on its own feed, USDC pegged
 * to the dollar behind its feed and ticker.
 */
function localnetPrices(
  chains: LocalEvmChainPlan[],
  bitcoin: LocalBitcoinChainPlan,
  solana: LocalSolanaChainPlan,
  sources: LocalnetPriceSources,
): PricesConfig {
  const feed = (chain: string, symbol: string): PriceSourceSpec => {
    const found = sources.feeds.find((f) => f.chain === chain && f.symbol === symbol);
    if (found === undefined) throw new Error(`the localnet has no ${symbol} feed on ${chain}`);
    return { kind: "chainlink", chain, feed: found.address, maxAgeMs: LOCALNET_FEED_MAX_AGE_MS };
  };
  const btcId = assetId(bitcoin.name, BTC_ASSET.symbol);
  const firstChain = chains[0]?.name ?? "";
  const assets: Record<string, AssetPriceConfig> = {
    [btcId]: {
      sources: [feed(firstChain, "btc"), ...(TICKERS.btc ?? [])],
      minSources: 3,
      maxDeviationBps: 100,
      peg: null,
    },
    // SOL like BTC: its feed on the first anvil chain and the three tickers; Solana USDC like EVM USDC.
    [assetId(solana.name, "sol")]: {
      sources: [feed(firstChain, "sol"), ...(TICKERS.sol ?? [])],
      minSources: 3,
      maxDeviationBps: 100,
      peg: null,
    },
    [assetId(solana.name, "usdc")]: {
      sources: [feed(firstChain, "usdc"), ...(TICKERS.usdc ?? [])],
      minSources: 1,
      maxDeviationBps: 100,
      peg: { base: "usd", maxDeviationBps: 100, quotedIn: "usd" },
    },
  };
  for (const chain of chains) {
    for (const asset of chain.assets) {
      const id = assetId(chain.name, asset.symbol);
      const own = [feed(chain.name, asset.symbol), ...(TICKERS[asset.symbol] ?? [])];
      if (asset.symbol === "wbtc") {
        assets[id] = {
          sources: own,
          minSources: 1,
          maxDeviationBps: 0,
          peg: { base: btcId, maxDeviationBps: 200, quotedIn: "usd" },
        };
      } else if (asset.symbol === "usdc") {
        assets[id] = {
          sources: own,
          minSources: 1,
          maxDeviationBps: 100,
          peg: { base: "usd", maxDeviationBps: 100, quotedIn: "usd" },
        };
      } else {
        assets[id] = { sources: own, minSources: 3, maxDeviationBps: 100, peg: null };
      }
    }
  }
  const exchange = { baseUrl: sources.tickerUrl, timeoutMs: 2_000, maxAgeMs: 10_000 };
  return {
    refreshMs: LOCALNET_PRICE_REFRESH_MS,
    exchanges: { binance: exchange, coinbase: exchange, kraken: exchange },
    assets,
  };
}

function localnetCurves(
  chains: LocalEvmChainPlan[],
  bitcoin: LocalBitcoinChainPlan,
  solana: LocalSolanaChainPlan,
): Record<string, InventoryCurve> {
  const curves: Record<string, InventoryCurve> = {};
  for (const { chain, asset } of allAssets(chains, bitcoin, solana)) {
    const curve = inventoryCurve(asset.symbol, asset.decimals);
    if (curve !== null) curves[assetId(chain, asset.symbol)] = curve;
  }
  return curves;
}

/** The solver's config on the localnet; every amount limit generous, every safety rule on. */
export function localnetSolverConfig(options: {
  chains: LocalEvmChainPlan[];
  bitcoin: LocalBitcoinChainPlan;
  solana: LocalSolanaChainPlan;
  serviceUrl: string;
  appId: string;
  solverId: string;
  evmKey: string;
  bitcoinKey: string;
  /** The solver's Solana secret key, base58. */
  solanaKey: string;
  journalPath: string;
  quotePort: number;
  opsPort: number;
  /** The secret the service signs its quote requests with (quote.auth.secret). */
  quoteSecret: string;
  prices: LocalnetPriceSources;
}): SolverConfig {
  const chains: EvmChainConfig[] = options.chains.map((chain) => ({
    family: "evm",
    name: chain.name,
    chainId: chain.chainId,
    rpcUrls: [chain.rpcUrl],
    minBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    maxBlockTimeMs: LOCALNET_TIMING.blockTimeMs,
    minConfirmations: LOCALNET_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_TIMING.finalityDepth,
    fillTimelockBlocks: LOCALNET_TIMING.destinationTimelock,
    bumpAfterMs: 15_000,
    maxFeePerGasWei: 500_000_000_000n,
    maxHeadLagBlocks: 3,
    rpcTimeoutMs: 15_000,
    maxBatch: 50,
    ...(chain.batchExecutor === undefined
      ? {}
      : { batchFills: "eip7702" as const, batchExecutor: chain.batchExecutor }),
    assets: chain.assets.map((asset) => ({
      id: assetId(chain.name, asset.symbol),
      chain: chain.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.htlcAddress,
    })),
  }));
  const fixedPrices: Record<string, string> = {};
  for (const chain of options.chains) {
    for (const asset of chain.assets)
      fixedPrices[assetId(chain.name, asset.symbol)] = LOCALNET_PRICES[asset.symbol] ?? "1";
  }
  fixedPrices[assetId(options.bitcoin.name, BTC_ASSET.symbol)] = LOCALNET_PRICES.btc ?? "60000";
  for (const asset of solanaAssets(options.solana))
    fixedPrices[assetId(options.solana.name, asset.symbol)] = LOCALNET_PRICES[asset.symbol] ?? "1";
  return {
    service: { url: options.serviceUrl, appId: options.appId },
    solver: {
      id: options.solverId,
      pollIntervalMs: 500,
      watchIntervalMs: 100,
      orderConcurrency: 32,
      leaseTtlMs: 10_000,
      keys: { evm: options.evmKey, bitcoin: options.bitcoinKey, solana: options.solanaKey },
    },
    chains: [...chains, solverBitcoinChain(options.bitcoin), solverSolanaChain(options.solana)],
    fixedPrices,
    prices: localnetPrices(options.chains, options.bitcoin, options.solana, options.prices),
    strategies: strategies(options.chains, options.bitcoin, options.solana),
    inventoryCurves: localnetCurves(options.chains, options.bitcoin, options.solana),
    limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
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

/** The solver's view of the localnet's Bitcoin chain: its own node, 1 s blocks, 1-100 sat/vB. */
function solverBitcoinChain(bitcoin: LocalBitcoinChainPlan): BitcoinChainConfig {
  return {
    family: "bitcoin",
    name: bitcoin.name,
    network: "regtest",
    backend: "bitcoind",
    rpcUrls: [bitcoin.rpcUrl],
    rpcUser: bitcoin.rpcUser,
    rpcPassword: bitcoin.rpcPassword,
    esploraUrls: [],
    maxHeadLagBlocks: 1,
    rpcTimeoutMs: 30_000,
    minBlockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    maxBlockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    minConfirmations: LOCALNET_BITCOIN_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_BITCOIN_TIMING.finalityDepth,
    fillTimelockBlocks: bitcoin.destinationTimelock,
    bumpAfterMs: 15_000,
    feeRateFloorSatVb: 1,
    feeRateCeilingSatVb: 100,
    maxBatch: 50,
    assets: [
      {
        id: assetId(bitcoin.name, BTC_ASSET.symbol),
        chain: bitcoin.name,
        symbol: BTC_ASSET.symbol,
        decimals: BTC_ASSET.decimals,
        tokenAddress: "primary",
        htlcAddress: "",
      },
    ],
  };
}

/** The solver's view of the localnet's Solana chain: 400 ms slots (500 at the slowest), fills of 600 slots. */
function solverSolanaChain(solana: LocalSolanaChainPlan): SolanaChainConfig {
  return {
    family: "solana",
    name: solana.name,
    chainId: solana.chainId,
    rpcUrls: [solana.rpcUrl],
    nativeProgramId: solana.nativeProgramId,
    splProgramId: solana.splProgramId,
    commitment: "confirmed",
    minBlockTimeMs: LOCALNET_SOLANA_TIMING.slotMs,
    maxBlockTimeMs: LOCALNET_SOLANA_TIMING.maxSlotMs,
    minConfirmations: LOCALNET_SOLANA_TIMING.requiredConfirmations,
    finalityDepth: LOCALNET_SOLANA_TIMING.finalityDepth,
    fillTimelockBlocks: solana.destinationTimelock,
    bumpAfterMs: 15_000,
    maxHeadLagBlocks: 75,
    rpcTimeoutMs: 15_000,
    computeUnitPriceFloorMicroLamports: 0n,
    computeUnitPriceCeilingMicroLamports: 1_000_000n,
    assets: solanaAssets(solana).map((asset) => ({
      id: assetId(solana.name, asset.symbol),
      chain: solana.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.tokenAddress === "native" ? solana.nativeProgramId : solana.splProgramId,
    })),
  };
}

function serviceSolanaChain(
  solana: LocalSolanaChainPlan,
  relayerSecretKey: string,
): LocalServiceSolanaChainConfig {
  return {
    name: solana.name,
    family: "solana",
    chainId: solana.chainId,
    rpcUrl: solana.rpcUrl,
    nativeProgramId: solana.nativeProgramId,
    splProgramId: solana.splProgramId,
    relayerSecretKey,
    requiredConfirmations: LOCALNET_SOLANA_TIMING.requiredConfirmations,
    sourceTimelock: solana.sourceTimelock,
    destinationTimelock: solana.destinationTimelock,
    blockTimeMs: LOCALNET_SOLANA_TIMING.slotMs,
    explorerUrl: "",
    assets: solanaAssets(solana).map((asset) => ({
      ...asset,
      priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
      minAmount: "1",
      maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
    })),
  };
}

function serviceBitcoinChain(bitcoin: LocalBitcoinChainPlan): LocalServiceBitcoinChainConfig {
  return {
    name: bitcoin.name,
    family: "bitcoin",
    network: "regtest",
    rpcUrl: bitcoin.rpcUrl,
    rpcUser: bitcoin.rpcUser,
    rpcPassword: bitcoin.rpcPassword,
    requiredConfirmations: LOCALNET_BITCOIN_TIMING.requiredConfirmations,
    sourceTimelock: bitcoin.sourceTimelock,
    destinationTimelock: bitcoin.destinationTimelock,
    blockTimeMs: LOCALNET_BITCOIN_TIMING.blockTimeMs,
    explorerUrl: "",
    assets: [
      {
        ...BTC_ASSET,
        priceUsd: LOCALNET_PRICES.btc ?? "60000",
        // Below a few hundred sats an output is dust.
        minAmount: "1000",
        maxAmount: (10n ** BigInt(BTC_ASSET.decimals + 6)).toString(),
      },
    ],
  };
}

export function localnetServiceConfig(options: {
  chains: LocalEvmChainPlan[];
  bitcoin: LocalBitcoinChainPlan;
  solana: LocalSolanaChainPlan;
  port: number;
  dbPath: string;
  appId: string;
  relayerKey: string;
  /** Pays the service's redeems on the Solana chain; base58 secret key. */
  solanaRelayerKey: string;
  solver: {
    id: string;
    quoteUrl: string;
    /** The solver's quote.auth.secret: the service signs its quote requests with it. */
    quoteSecret: string;
    evmAddress: string;
    bitcoinKey: string;
    solanaAddress: string;
  };
  sourceTimelock?: number;
}): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: options.port,
    dbPath: options.dbPath,
    appIds: [options.appId],
    relayerPrivateKey: options.relayerKey,
    pollIntervalMs: 500,
    chains: [
      ...options.chains.map((chain) => ({
        name: chain.name,
        family: "evm" as const,
        chainId: chain.chainId,
        rpcUrl: chain.rpcUrl,
        requiredConfirmations: LOCALNET_TIMING.requiredConfirmations,
        sourceTimelock: options.sourceTimelock ?? LOCALNET_TIMING.sourceTimelock,
        destinationTimelock: LOCALNET_TIMING.destinationTimelock,
        blockTimeMs: LOCALNET_TIMING.blockTimeMs,
        explorerUrl: "",
        assets: chain.assets.map((asset) => ({
          symbol: asset.symbol,
          name: asset.name,
          decimals: asset.decimals,
          tokenAddress: asset.tokenAddress,
          htlcAddress: asset.htlcAddress,
          priceUsd: LOCALNET_PRICES[asset.symbol] ?? "1",
          minAmount: "1",
          maxAmount: (10n ** BigInt(asset.decimals + 6)).toString(),
        })),
      })),
      serviceBitcoinChain(options.bitcoin),
      serviceSolanaChain(options.solana, options.solanaRelayerKey),
    ],
    solvers: [
      {
        id: options.solver.id,
        quoteUrl: options.solver.quoteUrl,
        quoteSecret: options.solver.quoteSecret,
        addresses: {
          evm: options.solver.evmAddress,
          bitcoin: options.solver.bitcoinKey,
          solana: options.solver.solanaAddress,
        },
      },
    ],
  };
}
