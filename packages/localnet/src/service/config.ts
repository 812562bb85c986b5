/**
 * Configuration of the local implementation of the service API. Amounts are decimal strings of smallest
 * units, prices are decimal strings of USD per whole unit, so the config can come straight from JSON.
 */
import { ecc } from "htlc-solver/chains/bitcoin/ecc.js";
import { solanaAddressProblem } from "htlc-solver/chains/solana/address.js";
import { MIN_QUOTE_SECRET_LENGTH } from "htlc-solver/pricing/quote-signature.js";
import { serviceFamilyOf } from "../families/registry.js";

/** What every asset has, whatever its chain family. */
export interface LocalServiceAssetBase {
  symbol: string;
  name: string;
  decimals: number;
  priceUsd: string;
  minAmount: string;
  maxAmount: string;
}

/** An EVM asset. */
export interface LocalServiceAssetConfig extends LocalServiceAssetBase {
  /** ERC20 contract, or `native` (also accepted: 0xEeee…EEeE) for the chain's coin. */
  tokenAddress: string;
  /** `HTLC` for a token, `NativeHTLC` for the coin. */
  htlcAddress: string;
}

/** The Bitcoin asset (`btc`, 8 decimals): no contract, the HTLC is a script. */
export type LocalServiceBitcoinAssetConfig = LocalServiceAssetBase;

export interface LocalServiceEvmChainConfig {
  name: string;
  family: "evm";
  chainId: number;
  rpcUrl: string;
  requiredConfirmations: number;
  /** Blocks. */
  sourceTimelock: number;
  /** Blocks. */
  destinationTimelock: number;
  blockTimeMs: number;
  explorerUrl: string;
  assets: LocalServiceAssetConfig[];
}

export interface LocalServiceBitcoinChainConfig {
  name: string;
  family: "bitcoin";
  network: "mainnet" | "testnet" | "regtest";
  /** bitcoind JSON-RPC (or the project's regtest node). */
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  requiredConfirmations: number;
  /** Blocks (CSV), at most 65535. */
  sourceTimelock: number;
  /** Blocks (CSV), at most 65535. */
  destinationTimelock: number;
  blockTimeMs: number;
  /** Empty when there is none. */
  explorerUrl?: string;
  /**
   * Highest fee rate, sat/vB, the service pays for its own spends (service redeem, refund) and accepts in
   * an instant refund it completes; 100 when absent.
   */
  maxFeeRateSatVb?: number;
  /** How far below the tip the watcher searches a newly watched HTLC address; 1008 when absent. */
  lookbackBlocks?: number;
  assets: LocalServiceBitcoinAssetConfig[];
}

/** A Solana asset: `native` for SOL, or the SPL mint (base58). */
export interface LocalServiceSolanaAssetConfig extends LocalServiceAssetBase {
  tokenAddress: string;
}

export interface LocalServiceSolanaChainConfig {
  name: string;
  family: "solana";
  /** The chain id hashed into Solana swap ids (103 on the test network). */
  chainId: number;
  rpcUrl: string;
  /** HTLC programs (base58). */
  nativeProgramId: string;
  splProgramId: string;
  /**
   * The 64-byte secret key (base58) that pays the fees of the service's redeems on this chain. It
   * never leaves the service.
   */
  relayerSecretKey: string;
  /** Slots, counted at `confirmed`. */
  requiredConfirmations: number;
  /** Slots. */
  sourceTimelock: number;
  /** Slots. */
  destinationTimelock: number;
  /** Slot time. */
  blockTimeMs: number;
  explorerUrl?: string;
  assets: LocalServiceSolanaAssetConfig[];
}

export type LocalServiceChainConfig =
  LocalServiceEvmChainConfig | LocalServiceBitcoinChainConfig | LocalServiceSolanaChainConfig;

export interface LocalServiceSolverConfig {
  /** Hex id the solver quotes under. */
  id: string;
  /** Full URL of the solver's quote endpoint, e.g. `http://127.0.0.1:7001/quote`. */
  quoteUrl: string;
  /**
   * The secret the solver's quote endpoint checks signatures with (its quote.auth.secret): each quote
   * request to it is signed. Absent: requests go unsigned.
   */
  quoteSecret?: string;
  /** EVM address, the x-only key (64 hex) the solver uses in Bitcoin HTLCs, and its Solana address. */
  addresses: { evm: string; bitcoin?: string; solana?: string };
}

export interface LocalServiceDeadlines {
  /** The user's initiate must be seen on chain within this many seconds of order creation. */
  initiateDetectSeconds: number;
  /** The same for a Bitcoin source (the live service's Bitcoin watch deadline: 6 hours). */
  bitcoinInitiateDetectSeconds: number;
  /** The user's initiate must be confirmed within this many seconds (`additional_data.deadline`). */
  initiateConfirmSeconds: number;
}

export interface LocalServiceConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** SQLite file; `:memory:` keeps everything in memory. */
  dbPath: string;
  /** Accepted `service-app-id` values, 64 hex each. */
  appIds: string[];
  /** 0x-prefixed EVM key that pays gas for relayed initiates and service redeems on every EVM chain. */
  relayerPrivateKey: string;
  pollIntervalMs: number;
  deadlines?: Partial<LocalServiceDeadlines>;
  /** Milliseconds to wait for a solver's quote; 3000 when absent. */
  quoteTimeoutMs?: number;
  chains: LocalServiceChainConfig[];
  solvers: LocalServiceSolverConfig[];
}

export const DEFAULT_DEADLINES: LocalServiceDeadlines = {
  initiateDetectSeconds: 3600,
  bitcoinInitiateDetectSeconds: 21_600,
  initiateConfirmSeconds: 43_200,
};

export const DEFAULT_QUOTE_TIMEOUT_MS = 3000;

export class LocalServiceConfigError extends Error {
  constructor(message: string) {
    super(`invalid local service config: ${message}`);
    this.name = "LocalServiceConfigError";
  }
}

const HEX_64 = /^[0-9a-fA-F]{64}$/;
const HEX_ID = /^(0x)?[0-9a-fA-F]+$/;
const DIGITS = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Throws LocalServiceConfigError naming the first field that is wrong. */
export function validateLocalServiceConfig(config: LocalServiceConfig): void {
  if (config.appIds.length === 0) fail("appIds is empty");
  for (const id of config.appIds) if (!HEX_64.test(id)) fail(`appId ${id} is not 64 hex characters`);
  if (!PRIVATE_KEY.test(config.relayerPrivateKey)) fail("relayerPrivateKey must be 0x followed by 64 hex");
  if (!(config.pollIntervalMs > 0)) fail("pollIntervalMs must be > 0");
  const names = new Set<string>();
  for (const chain of config.chains) {
    if (names.has(chain.name)) fail(`chain ${chain.name} is listed twice`);
    names.add(chain.name);
    validateChain(chain);
  }
  for (const solver of config.solvers) {
    if (!HEX_ID.test(solver.id)) fail(`solver id ${solver.id} is not hex`);
    if (!URL.canParse(solver.quoteUrl)) fail(`solver ${solver.id} quoteUrl ${solver.quoteUrl} is not a URL`);
    if (solver.quoteSecret !== undefined && solver.quoteSecret.length < MIN_QUOTE_SECRET_LENGTH) {
      fail(`solver ${solver.id} quoteSecret must be at least ${MIN_QUOTE_SECRET_LENGTH} characters`);
    }
    const bitcoin = solver.addresses.bitcoin;
    if (bitcoin !== undefined && !isXOnlyKeyHex(bitcoin)) {
      fail(`solver ${solver.id} addresses.bitcoin ${bitcoin} is not an x-only public key (64 hex)`);
    }
    const solana = solver.addresses.solana;
    if (solana !== undefined && solanaAddressProblem(solana) !== null) {
      fail(`solver ${solver.id} addresses.solana ${solana} is not a Solana address`);
    }
  }
}

function validateChain(chain: LocalServiceChainConfig): void {
  const where = `chain ${chain.name}`;
  const family = serviceFamilyOf(chain);
  if (family === undefined) fail(`${where}: family ${String(chain.family)} is not supported`);
  family.validateChain(chain);
  if (!Number.isInteger(chain.requiredConfirmations) || chain.requiredConfirmations < 1) {
    fail(`${where}: requiredConfirmations must be an integer >= 1`);
  }
  for (const key of ["sourceTimelock", "destinationTimelock"] as const) {
    if (!Number.isInteger(chain[key]) || chain[key] < 1) fail(`${where}: ${key} must be an integer >= 1`);
  }
  const symbols = new Set<string>();
  for (const asset of chain.assets) {
    if (symbols.has(asset.symbol)) fail(`${where}: asset ${asset.symbol} is listed twice`);
    symbols.add(asset.symbol);
    if (!DIGITS.test(asset.minAmount) || !DIGITS.test(asset.maxAmount)) {
      fail(`${where}: asset ${asset.symbol} minAmount/maxAmount must be decimal digits`);
    }
    if (BigInt(asset.minAmount) > BigInt(asset.maxAmount)) {
      fail(`${where}: asset ${asset.symbol} minAmount exceeds maxAmount`);
    }
    if (!DECIMAL.test(asset.priceUsd))
      fail(`${where}: asset ${asset.symbol} priceUsd must be a decimal string`);
  }
}

function isXOnlyKeyHex(value: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(value) && ecc.isXOnlyPoint(Buffer.from(value, "hex"));
}

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}
