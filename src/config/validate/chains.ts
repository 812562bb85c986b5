import { solanaAddressProblem } from "../../chains/solana/address.js";
import type { BitcoinChainConfig, ChainConfig, EvmChainConfig, SolanaChainConfig } from "../types.js";
import type { Problems } from "../errors.js";
import { DEFAULT_EVM_BATCH, EVM_BATCH_FILLS, MAX_EVM_BATCH } from "../../chains/evm/batch/batching.js";
import { defaultMaxHeadAgeMs } from "../../chains/rpc/head-age.js";
import { checkHttpUrl, describeValue } from "./checks.js";
import { checkEvmAddress, normalizeEvmAddress } from "./evm-address.js";
import { readAssets } from "./assets.js";
import { fieldsOf, isRawObject, type Fields } from "./fields.js";

export const CHAIN_NAME = /^[a-z][a-z0-9_]*$/;
const NAME_HINT = "must be lower-case letters, digits and '_', starting with a letter";
/** BIP-68 relative locks carry 16 bits of blocks. */
const MAX_CSV_BLOCKS = 0xffff;

const COMMON_KEYS = [
  "family",
  "name",
  "minBlockTimeMs",
  "maxBlockTimeMs",
  "minConfirmations",
  "finalityDepth",
  "fillTimelockBlocks",
  "bumpAfterMs",
  "maxHeadLagBlocks",
  "maxHeadAgeMs",
  "rpcTimeoutMs",
  "assets",
];
export const EVM_CHAIN_KEYS = [
  ...COMMON_KEYS,
  ...["chainId", "rpcUrls", "maxFeePerGasWei", "maxBatch", "batchFills", "batchExecutor"],
];
export const BITCOIN_CHAIN_KEYS = [
  ...COMMON_KEYS,
  ...["network", "backend", "rpcUrls", "rpcUrl", "rpcUser", "rpcPassword", "esploraUrls", "esploraUrl"],
  ...["feeRateFloorSatVb", "feeRateCeilingSatVb", "maxBatch"],
];
export const SOLANA_CHAIN_KEYS = [
  ...COMMON_KEYS,
  ...["chainId", "rpcUrls", "nativeProgramId", "splProgramId", "commitment"],
  ...["computeUnitPriceFloorMicroLamports", "computeUnitPriceCeilingMicroLamports"],
];
/**
 * Actions in one Bitcoin transaction at most. Each spends at most MAX_LOCKS_PER_HTLC outputs, so 50
 * keeps the largest batch far below the 400 000 weight units a standard transaction may have.
 */
const MAX_BITCOIN_BATCH = 50;

function checkUrls(f: Fields, key: string, urls: unknown[]): string[] {
  return urls.map((url, index) => {
    const problem = checkHttpUrl(url);
    if (problem !== null) f.problem(`${key}[${index}]`, problem);
    return typeof url === "string" ? url : "";
  });
}

function readRpcUrls(f: Fields): string[] {
  return checkUrls(f, "rpcUrls", f.array("rpcUrls", true));
}

/**
 * A list of endpoint URLs given either as the list key (`rpcUrls`) or, as before lists existed, as one
 * URL under the single key (`rpcUrl`), which reads as a list of one. Giving both is ambiguous.
 */
function readUrlList(f: Fields, listKey: string, singleKey: string): string[] {
  const list = f.obj[listKey];
  const single = f.obj[singleKey];
  if (list !== undefined && single !== undefined && single !== "") {
    f.problem(singleKey, `give either ${singleKey} (one URL) or ${listKey} (a list), not both`);
  }
  if (list !== undefined) return checkUrls(f, listKey, f.array(listKey, false));
  const url = f.httpUrl(singleKey, { default: "" });
  return url === "" ? [] : [url];
}

/**
 * Both bounds are required: a source timelock is timed with the fastest blocks, a destination's with the
 * slowest. The slowest also sets the default age at which a head is stale, which must allow one block.
 */
function readBlockTimes(
  f: Fields,
  family: ChainConfig["family"],
): { minBlockTimeMs: number; maxBlockTimeMs: number; maxHeadAgeMs: number } {
  const minBlockTimeMs = f.integer("minBlockTimeMs", 1);
  const maxBlockTimeMs = f.integer("maxBlockTimeMs", 1);
  if (minBlockTimeMs > maxBlockTimeMs) {
    f.problem("minBlockTimeMs", `${minBlockTimeMs} must not exceed maxBlockTimeMs ${maxBlockTimeMs}`);
  }
  const maxHeadAgeMs = f.integer("maxHeadAgeMs", 1, undefined, {
    default: defaultMaxHeadAgeMs(family, maxBlockTimeMs),
  });
  if (maxHeadAgeMs < maxBlockTimeMs) {
    f.problem("maxHeadAgeMs", `${maxHeadAgeMs} must be at least maxBlockTimeMs ${maxBlockTimeMs}`);
  }
  return { minBlockTimeMs, maxBlockTimeMs, maxHeadAgeMs };
}

function readEvmChain(f: Fields, name: string): EvmChainConfig {
  f.onlyKeys(EVM_CHAIN_KEYS, "an evm chain");
  return {
    family: "evm",
    name,
    chainId: f.integer("chainId", 1),
    rpcUrls: readRpcUrls(f),
    ...readBlockTimes(f, "evm"),
    minConfirmations: f.integer("minConfirmations", 1),
    finalityDepth: f.integer("finalityDepth", 1, undefined, { default: 12 }),
    fillTimelockBlocks: f.integer("fillTimelockBlocks", 1),
    bumpAfterMs: f.integer("bumpAfterMs", 1000, undefined, { default: 60_000 }),
    maxFeePerGasWei: f.amount("maxFeePerGasWei", { default: 100_000_000_000n, min: 1n }),
    ...readRpcTuning(f, { maxHeadLagBlocks: 3, rpcTimeoutMs: 15_000 }),
    ...readEvmBatching(f),
    assets: readAssets(f.problems, f.array("assets", true), f.at("assets"), name, { family: "evm" }),
  };
}

/** Batch size, and fills batched through an EIP-7702 delegation, which needs the executor's address. */
function readEvmBatching(
  f: Fields,
): Required<Pick<EvmChainConfig, "maxBatch" | "batchFills" | "batchExecutor">> {
  const maxBatch = f.integer("maxBatch", 1, MAX_EVM_BATCH, { default: DEFAULT_EVM_BATCH });
  const batchFills = f.oneOf("batchFills", EVM_BATCH_FILLS, { default: "none" });
  const executor = f.string("batchExecutor", { default: "" });
  if (batchFills === "eip7702" && executor === "") {
    f.problem(
      "batchExecutor",
      'is required with batchFills "eip7702": the BatchExecutor the account delegates to',
    );
    return { maxBatch, batchFills, batchExecutor: "" };
  }
  if (executor === "") return { maxBatch, batchFills, batchExecutor: "" };
  const problem = checkEvmAddress(executor);
  if (problem !== null) f.problem("batchExecutor", problem);
  return { maxBatch, batchFills, batchExecutor: problem === null ? normalizeEvmAddress(executor) : "" };
}

/** How far behind an endpoint may be and how long one request may take; defaults per family. */
function readRpcTuning(f: Fields, defaults: { maxHeadLagBlocks: number; rpcTimeoutMs: number }) {
  return {
    maxHeadLagBlocks: f.integer("maxHeadLagBlocks", 0, undefined, { default: defaults.maxHeadLagBlocks }),
    rpcTimeoutMs: f.integer("rpcTimeoutMs", 100, undefined, { default: defaults.rpcTimeoutMs }),
  };
}

function readBitcoinEndpoints(f: Fields, backend: BitcoinChainConfig["backend"]) {
  const endpoints = {
    rpcUrls: readUrlList(f, "rpcUrls", "rpcUrl"),
    rpcUser: f.string("rpcUser", { default: "" }),
    rpcPassword: f.string("rpcPassword", { default: "" }),
    esploraUrls: readUrlList(f, "esploraUrls", "esploraUrl"),
  };
  if (backend === "bitcoind" && endpoints.rpcUrls.length === 0)
    f.problem("rpcUrls", "is required with backend bitcoind (or rpcUrl for a single node)");
  if (backend === "esplora" && endpoints.esploraUrls.length === 0) {
    f.problem("esploraUrls", "is required with backend esplora (or esploraUrl for a single server)");
  }
  return endpoints;
}

function readBitcoinChain(f: Fields, name: string): BitcoinChainConfig {
  f.onlyKeys(BITCOIN_CHAIN_KEYS, "a bitcoin chain");
  const backend = f.oneOf("backend", ["bitcoind", "esplora"] as const, { default: "bitcoind" });
  const chain: BitcoinChainConfig = {
    family: "bitcoin",
    name,
    network: f.oneOf("network", ["mainnet", "testnet", "regtest"] as const),
    backend,
    ...readBitcoinEndpoints(f, backend),
    ...readBlockTimes(f, "bitcoin"),
    minConfirmations: f.integer("minConfirmations", 1),
    finalityDepth: f.integer("finalityDepth", 1, undefined, { default: 6 }),
    fillTimelockBlocks: f.integer("fillTimelockBlocks", 1, MAX_CSV_BLOCKS),
    bumpAfterMs: f.integer("bumpAfterMs", 1000, undefined, { default: 1_800_000 }),
    ...readRpcTuning(f, { maxHeadLagBlocks: 1, rpcTimeoutMs: 30_000 }),
    feeRateFloorSatVb: f.integer("feeRateFloorSatVb", 1, undefined, { default: 1 }),
    feeRateCeilingSatVb: f.integer("feeRateCeilingSatVb", 1, undefined, { default: 200 }),
    maxBatch: f.integer("maxBatch", 1, MAX_BITCOIN_BATCH, { default: MAX_BITCOIN_BATCH }),
    assets: readAssets(f.problems, f.array("assets", true), f.at("assets"), name, { family: "bitcoin" }),
  };
  if (chain.feeRateFloorSatVb > chain.feeRateCeilingSatVb) {
    f.problem("feeRateFloorSatVb", `${chain.feeRateFloorSatVb} must not exceed feeRateCeilingSatVb`);
  }
  return chain;
}

function readProgramId(f: Fields, key: string): string {
  const value = f.string(key);
  const problem = f.obj[key] === undefined ? null : solanaAddressProblem(value);
  if (problem !== null) f.problem(key, `${describeValue(value)} ${problem}`);
  return value;
}

/**
 * A Solana chain. Timelocks and confirmations are in slots; the block times are slot times. Program ids
 * are required: the live deployments differ by version and network, and the solver never assumes one.
 */
function readSolanaChain(f: Fields, name: string): SolanaChainConfig {
  f.onlyKeys(SOLANA_CHAIN_KEYS, "a solana chain");
  const programs = { native: readProgramId(f, "nativeProgramId"), spl: readProgramId(f, "splProgramId") };
  if (programs.native !== "" && programs.native === programs.spl)
    f.problem("splProgramId", "must differ from nativeProgramId");
  const chain: SolanaChainConfig = {
    family: "solana",
    name,
    chainId: f.integer("chainId", 0),
    rpcUrls: readRpcUrls(f),
    nativeProgramId: programs.native,
    splProgramId: programs.spl,
    commitment: f.oneOf("commitment", ["confirmed", "finalized"] as const, { default: "confirmed" }),
    ...readBlockTimes(f, "solana"),
    minConfirmations: f.integer("minConfirmations", 1),
    finalityDepth: f.integer("finalityDepth", 1, undefined, { default: 32 }),
    fillTimelockBlocks: f.integer("fillTimelockBlocks", 1),
    bumpAfterMs: f.integer("bumpAfterMs", 1000, undefined, { default: 30_000 }),
    ...readRpcTuning(f, { maxHeadLagBlocks: 75, rpcTimeoutMs: 15_000 }),
    computeUnitPriceFloorMicroLamports: f.amount("computeUnitPriceFloorMicroLamports", { default: 0n }),
    computeUnitPriceCeilingMicroLamports: f.amount("computeUnitPriceCeilingMicroLamports", {
      default: 1_000_000n,
    }),
    assets: readAssets(f.problems, f.array("assets", true), f.at("assets"), name, {
      family: "solana",
      programs,
    }),
  };
  if (chain.computeUnitPriceFloorMicroLamports > chain.computeUnitPriceCeilingMicroLamports) {
    f.problem(
      "computeUnitPriceFloorMicroLamports",
      `${chain.computeUnitPriceFloorMicroLamports} must not exceed computeUnitPriceCeilingMicroLamports`,
    );
  }
  const natives = chain.assets.filter((a) => a.tokenAddress === "native");
  if (natives.length > 1) f.problem("assets", "lists the native coin more than once");
  return chain;
}

function readChain(f: Fields): ChainConfig | null {
  const name = f.string("name", { pattern: CHAIN_NAME, hint: NAME_HINT });
  const family = f.obj.family;
  if (family === "evm") return readEvmChain(f, name);
  if (family === "bitcoin") return readBitcoinChain(f, name);
  if (family === "solana") return readSolanaChain(f, name);
  f.problem("family", `${describeValue(family)} must be one of evm, bitcoin, solana`);
  return null;
}

/** `<chain>:<symbol>` of the assets of a chain that could not be read, so references to them add no noise. */
function unreadAssetIds(f: Fields): string[] {
  const assets = Array.isArray(f.obj.assets) ? f.obj.assets : [];
  return assets.flatMap((a: unknown) =>
    typeof f.obj.name === "string" && isRawObject(a) && typeof a.symbol === "string"
      ? [`${f.obj.name}:${a.symbol}`]
      : [],
  );
}

export interface ChainsRead {
  chains: ChainConfig[];
  /** Asset ids of chains whose family is not supported; already reported, not to be reported again. */
  unreadAssetIds: string[];
}

/** Chains with their assets; names unique, EVM chain ids unique. */
export function readChains(problems: Problems, raw: unknown): ChainsRead {
  const chains: ChainConfig[] = [];
  const unread: string[] = [];
  if (!Array.isArray(raw)) {
    problems.add("chains", `${describeValue(raw)} must be an array of chains`);
    return { chains, unreadAssetIds: unread };
  }
  if (raw.length === 0) problems.add("chains", "must list at least one chain");
  raw.forEach((value, index) => {
    const f = fieldsOf(problems, value, `chains[${index}]`, "a chain");
    const chain = f === null ? null : readChain(f);
    if (f !== null && chain === null) unread.push(...unreadAssetIds(f));
    if (f === null || chain === null) return;
    if (chains.some((c) => c.name === chain.name))
      f.problem("name", `"${chain.name}" is used by another chain`);
    const sameId = chains.find(
      (c) => c.family === "evm" && chain.family === "evm" && c.chainId === chain.chainId,
    );
    if (sameId !== undefined)
      f.problem("chainId", `${describeValue(f.obj.chainId)} is also ${sameId.name}'s`);
    chains.push(chain);
  });
  return { chains, unreadAssetIds: unread };
}
