/**
 * A Sui chain's settings besides the common ones (src/config/common-chain.ts), its assets' address rules
 * and its key. An asset's `tokenAddress` is its coin type (`0x2::sui::SUI`), its `htlcAddress` the
 * `OrdersRegistry<CoinType>` shared object of the AtomicSwap package (`packageId`).
 *
 * Heights on Sui are the chain's clock, in ms (the latest checkpoint's timestamp): the module's timelocks
 * are ms and a refund is possible once `initiated_at + timelock` is past the clock, so a "block" here is
 * one ms (`minBlockTimeMs` = `maxBlockTimeMs` = 1) and `fillTimelockBlocks` and `minConfirmations` are
 * ms. `finalityDepth` counts checkpoints. Fees are MIST (10^-9 SUI).
 */
import { z } from "zod";
import type { ChainConfigSpec } from "../../config/chain-spec.js";
import { describeValue } from "../../config/checks.js";
import type { AssetConfig, CommonChainConfig } from "../../config/common-chain.js";
import { amount, integer, setting, urlList } from "../../config/zod/values.js";
import { readCoinType, readSuiAddress, SUI_COIN_TYPE } from "./address.js";
import { readSuiKey } from "./key.js";
import { knownSuiProblems } from "./known-networks.js";

/** `AtomicSwap::initiate` refuses a timelock above seven days, in ms (abort 9; docs/protocol.md, Sui). */
export const SUI_MAX_TIMELOCK_MS = 604_800_000;

/** A Sui address or object id, stored as `0x` and 64 lower-case digits; "" where `optional` and absent. */
const address = (options: { default?: string } = {}) =>
  setting<string>(
    (value) => {
      if (typeof value !== "string") return { problem: `${describeValue(value)} must be a string` };
      const stored = readSuiAddress(value);
      if (stored === null)
        return { problem: `${describeValue(value)} is not a Sui address (0x and up to 64 hex digits)` };
      return BigInt(stored) === 0n ? { problem: "is the zero address" } : { value: stored };
    },
    "",
    options,
  );

/** A coin type such as `0x2::sui::SUI`, stored with its package address in full. */
const coinType = setting<string>((value) => {
  const stored = typeof value === "string" ? readCoinType(value) : null;
  return stored === null
    ? { problem: `${describeValue(value)} is not a Sui coin type such as "0x2::sui::SUI"` }
    : { value: stored };
}, "");

/** Initial shared versions of registries, by asset symbol; a positive integer each. */
const sharedVersions = setting<Record<string, bigint>>(
  (value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return { problem: `${describeValue(value)} must be an object of asset symbol to version` };
    const versions: Record<string, bigint> = {};
    for (const [symbol, version] of Object.entries(value as Record<string, unknown>)) {
      const text = typeof version === "number" && Number.isSafeInteger(version) ? String(version) : version;
      if (typeof text !== "string" || !/^[1-9][0-9]{0,19}$/.test(text))
        return { problem: `${symbol}: ${describeValue(version)} is not a positive integer version` };
      versions[symbol.toLowerCase()] = BigInt(text);
    }
    return { value: versions };
  },
  {},
  { default: {} },
);

const suiFields = z.object({
  rpcUrls: urlList(true),
  /** The AtomicSwap package whose `OrdersRegistry` objects the assets name. */
  packageId: address(),
  /** The solver's address; "" (absent) takes the key's. When set, start refuses a key of another address. */
  solverAddress: address({ default: "" }),
  /** Each registry's initial shared version, by asset symbol; read from the node at start when absent. */
  registryInitialSharedVersions: sharedVersions,
  /** Budget over the dry run's gas, percent. */
  gasBudgetMarginPercent: integer(0, 1000, { default: 20 }),
  /** Ceiling of one transaction's gas budget, MIST. */
  maxGasBudgetMist: amount({ default: 200_000_000n, min: 1_000_000n }),
  /** Ceiling of the gas price, MIST per unit: above it the reference price is refused, never signed. */
  maxGasPriceMist: amount({ default: 5_000n, min: 1n }),
});

export type SuiChainConfig = CommonChainConfig & z.output<typeof suiFields> & { family: "sui" };

/** The configured asset that is SUI, by its coin type (not by a `native` spelling). */
export function suiCoin(assets: readonly AssetConfig[]): AssetConfig | undefined {
  return assets.find((asset) => asset.tokenAddress === SUI_COIN_TYPE);
}

/** MIST: SUI has 9 decimals. */
export const SUI_DECIMALS = 9;

/** Sui heights are ms of the chain's clock: a head is stale after a minute without a checkpoint. */
export const SUI_MAX_HEAD_AGE_MS = 60_000;

export const suiConfigSpec = {
  name: "sui",
  fields: suiFields,
  // Checkpoints are final once made; about four a second: 40 behind the best endpoint's is ten seconds.
  commonDefaults: { finalityDepth: 1, bumpAfterMs: 30_000, maxHeadLagBlocks: 40, rpcTimeoutMs: 15_000 },
  maxFillTimelockBlocks: SUI_MAX_TIMELOCK_MS,
  defaultMaxHeadAgeMs: () => SUI_MAX_HEAD_AGE_MS,
  assetAddresses: () => z.object({ tokenAddress: coinType, htlcAddress: address() }),
  checkKnownNetwork: knownSuiProblems,
  settle: (chain, report) => {
    if (new Set(chain.assets.map((a) => a.htlcAddress)).size !== chain.assets.length)
      report("assets", "list a registry twice: a registry holds one coin type");
    if (new Set(chain.assets.map((a) => a.tokenAddress)).size !== chain.assets.length)
      report("assets", "list a coin type twice");
    chain.assets.forEach((asset, index) => {
      if (asset.tokenAddress === SUI_COIN_TYPE && asset.decimals !== SUI_DECIMALS)
        report(`assets[${index}].decimals`, `${asset.decimals} differs from SUI's ${SUI_DECIMALS}`);
    });
    const symbols = new Set(chain.assets.map((a) => a.symbol.toLowerCase()));
    for (const symbol of Object.keys(chain.registryInitialSharedVersions))
      if (!symbols.has(symbol))
        report(`registryInitialSharedVersions.${symbol}`, "is not the symbol of an asset of this chain");
    if (chain.minBlockTimeMs !== 1 || chain.maxBlockTimeMs !== 1)
      report("minBlockTimeMs", "must be 1, as maxBlockTimeMs: heights on Sui are the chain's clock in ms");
  },
  networkKey: "packageId",
  key: {
    doc: "Ed25519 private key of the solver's Sui account: suiprivkey… (Bech32) or 32-byte hex.",
    env: "SOLVER_SUI_PRIVATE_KEY",
    keyFileForm: "suiprivkey…",
    normalize: (value) => {
      const reading = readSuiKey(value);
      return "key" in reading
        ? { value: reading.key }
        : { problem: `is not a Sui private key: it ${reading.problem} (value not shown)` };
    },
  },
  endpointVariables: [{ suffix: "RPC_URLS", key: "rpcUrls", list: true }],
  readsPriceFeeds: false,
} satisfies ChainConfigSpec<"sui", SuiChainConfig>;
