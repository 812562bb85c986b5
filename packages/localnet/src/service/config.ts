/**
 * Configuration of the local implementation of the service API. Amounts are decimal strings of smallest
 * units, prices are decimal strings of USD per whole unit, so the config can come straight from JSON.
 */
import { MIN_QUOTE_SECRET_LENGTH } from "htlc-solver/pricing/quote-signature.js";
import {
  allServiceFamilies,
  serviceFamilyOf,
  type LocalServiceChainConfig,
  type LocalSolverAddresses,
} from "../families/registry.js";

/** What every asset has, whatever its chain family. */
export interface LocalServiceAssetBase {
  symbol: string;
  name: string;
  decimals: number;
  priceUsd: string;
  minAmount: string;
  maxAmount: string;
}

/** A chain of any family; each family's own keys are in families/<family>/service/<family>-config.ts. */
export type { LocalServiceChainConfig, LocalSolverAddresses };

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
  /** The solver's address on each family it fills on (its key in HTLC scripts where there are no addresses). */
  addresses: LocalSolverAddresses;
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
    for (const family of allServiceFamilies()) {
      const address = family.solverAddress(solver);
      const problem = address === undefined ? null : (family.solverAddressProblem?.(address) ?? null);
      if (problem !== null) fail(`solver ${solver.id} addresses.${family.family} ${address} ${problem}`);
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

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}
