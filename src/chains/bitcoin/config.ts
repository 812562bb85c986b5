/**
 * A Bitcoin chain's settings besides the common ones (src/config/common-chain.ts), its assets' address
 * rules and its key: what the configuration asks of the family.
 */
import { z } from "zod";
import type { ChainConfigSpec } from "../../config/chain-spec.js";
import { describeValue } from "../../config/checks.js";
import type { AssetConfig, CommonChainConfig } from "../../config/common-chain.js";
import { httpUrl, integer, oneOf, setting, text, urlList } from "../../config/zod/values.js";
import { readSecp256k1Key } from "../secp256k1-key.js";
import { MAX_CSV_BLOCKS } from "./htlc.js";

/**
 * Actions in one Bitcoin transaction at most. Each spends at most MAX_LOCKS_PER_HTLC outputs, so 50
 * keeps the largest batch far below the 400 000 weight units a standard transaction may have.
 */
const MAX_BITCOIN_BATCH = 50;
/**
 * Bitcoin: two hours without a block happen a few times a year, and the median time past a head is
 * judged by trails the tip by about six blocks.
 */
const BITCOIN_GAP_MS = 2 * 3_600_000;
const BITCOIN_MEDIAN_LAG_BLOCKS = 6;

export function bitcoinMaxHeadAgeMs(maxBlockTimeMs: number): number {
  return BITCOIN_GAP_MS + BITCOIN_MEDIAN_LAG_BLOCKS * maxBlockTimeMs;
}

const bitcoinFields = z.object({
  network: oneOf(["mainnet", "testnet", "regtest"]),
  backend: oneOf(["bitcoind", "esplora"], { default: "bitcoind" }),
  /** bitcoind JSON-RPC endpoints (the `rpcUrl` key gives a list of one); empty with backend esplora. */
  rpcUrls: urlList(false).optional(),
  rpcUrl: httpUrl({ default: "" }),
  /** Credentials for the endpoints whose URL carries none. */
  rpcUser: text({ default: "" }),
  rpcPassword: text({ default: "" }),
  /** Esplora REST bases (the `esploraUrl` key gives a list of one); empty with backend bitcoind. */
  esploraUrls: urlList(false).optional(),
  esploraUrl: httpUrl({ default: "" }),
  feeRateFloorSatVb: integer(1, undefined, { default: 1 }),
  feeRateCeilingSatVb: integer(1, undefined, { default: 200 }),
  /** Actions (fills, redeems, refunds) one transaction carries at most. */
  maxBatch: integer(1, MAX_BITCOIN_BATCH, { default: MAX_BITCOIN_BATCH }),
});

/** The endpoints in their one form, lists, whichever form (one URL or a list) they were written in. */
type BitcoinFields = Omit<
  z.output<typeof bitcoinFields>,
  "rpcUrl" | "esploraUrl" | "rpcUrls" | "esploraUrls"
> & {
  rpcUrls: string[];
  esploraUrls: string[];
};

export type BitcoinChainConfig = CommonChainConfig & BitcoinFields & { family: "bitcoin" };

/** A list given as the list key or, as before lists existed, as one URL under the single key; not both. */
function urlsOf(
  chain: Record<string, unknown>,
  listKey: "rpcUrls" | "esploraUrls",
  singleKey: "rpcUrl" | "esploraUrl",
  report: (key: string, message: string) => void,
): string[] {
  const list = chain[listKey] as string[] | undefined;
  const single = chain[singleKey] as string;
  delete chain[singleKey];
  if (list !== undefined && single !== "")
    report(singleKey, `give either ${singleKey} (one URL) or ${listKey} (a list), not both`);
  if (list !== undefined) return list;
  return single === "" ? [] : [single];
}

/** The chain's coin among its configured assets: loading stores Bitcoin's one coin as `primary`. */
export function bitcoinCoin(assets: readonly AssetConfig[]): AssetConfig | undefined {
  return assets.find((asset) => asset.tokenAddress === "primary");
}

/** Bitcoin has one coin, written `primary` (or `native`) and no HTLC contract: each swap has its own script. */
const bitcoinAddresses = z.object({
  tokenAddress: setting<string>(
    (value) =>
      value === "primary" || value === "native"
        ? { value: "primary" }
        : { problem: `${describeValue(value)} must be "primary" (Bitcoin has one coin)` },
    "primary",
    { default: "primary" },
  ),
  htlcAddress: setting<string>(
    (value) =>
      value === ""
        ? { value }
        : { problem: "must be empty on Bitcoin (each swap has its own script address)" },
    "",
    { default: "" },
  ),
});

export const bitcoinConfigSpec = {
  name: "bitcoin",
  fields: bitcoinFields,
  commonDefaults: { finalityDepth: 6, bumpAfterMs: 1_800_000, maxHeadLagBlocks: 1, rpcTimeoutMs: 30_000 },
  maxFillTimelockBlocks: MAX_CSV_BLOCKS,
  defaultMaxHeadAgeMs: bitcoinMaxHeadAgeMs,
  assetAddresses: () => bitcoinAddresses,
  settle: (chain, report) => {
    const raw = chain as unknown as Record<string, unknown>;
    chain.rpcUrls = urlsOf(raw, "rpcUrls", "rpcUrl", report);
    chain.esploraUrls = urlsOf(raw, "esploraUrls", "esploraUrl", report);
    if (chain.backend === "bitcoind" && chain.rpcUrls.length === 0)
      report("rpcUrls", "is required with backend bitcoind (or rpcUrl for a single node)");
    if (chain.backend === "esplora" && chain.esploraUrls.length === 0)
      report("esploraUrls", "is required with backend esplora (or esploraUrl for a single server)");
    if (chain.feeRateFloorSatVb > chain.feeRateCeilingSatVb)
      report("feeRateFloorSatVb", `${chain.feeRateFloorSatVb} must not exceed feeRateCeilingSatVb`);
  },
  key: {
    doc: "Private key (32-byte hex) for Bitcoin.",
    env: "SOLVER_BITCOIN_PRIVATE_KEY",
    keyFileForm: "<hex>",
    normalize: readSecp256k1Key,
  },
  endpointVariables: [
    { suffix: "RPC_URLS", key: "rpcUrls", list: true, replaces: "rpcUrl" },
    { suffix: "RPC_URL", key: "rpcUrl", list: false, replaces: "rpcUrls" },
    { suffix: "RPC_USER", key: "rpcUser", list: false },
    { suffix: "RPC_PASSWORD", key: "rpcPassword", list: false },
    { suffix: "ESPLORA_URLS", key: "esploraUrls", list: true, replaces: "esploraUrl" },
    { suffix: "ESPLORA_URL", key: "esploraUrl", list: false, replaces: "esploraUrls" },
  ],
  readsPriceFeeds: false,
} satisfies ChainConfigSpec<"bitcoin", BitcoinChainConfig>;
