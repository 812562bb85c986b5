/**
 * An EVM chain's settings besides the common ones (src/config/common-chain.ts), its assets' address
 * rules and its key: what the configuration asks of the family.
 */
import { z } from "zod";
import type { ChainConfigSpec, WithOptional } from "../../config/chain-spec.js";
import { FROM_SERVICE, type CommonChainConfig } from "../../config/common-chain.js";
import { checkEvmAddress, normalizeEvmAddress } from "../../config/evm-address.js";
import { amount, integer, oneOf, setting, urlList } from "../../config/zod/values.js";
import { defaultMaxHeadAgeMs } from "../rpc/head-age.js";
import { readSecp256k1Key } from "../secp256k1-key.js";
import { isNativeToken } from "./assets.js";
import { DEFAULT_EVM_BATCH, EVM_BATCH_FILLS, MAX_EVM_BATCH } from "./batch/batching.js";
import { NATIVE_TOKEN_ADDRESS } from "./htlc-abi.js";
import { knownNetworkProblems } from "./known-networks.js";

/** A checksummed EVM address; "" where `optional` allows it, "service" where `fromService` does. */
function evmAddress(options: { optional?: boolean; notZero?: boolean; fromService?: boolean } = {}) {
  return setting<string>(
    (value) => {
      if (options.optional === true && value === "") return { value: "" };
      if (options.fromService === true && value === FROM_SERVICE) return { value: FROM_SERVICE };
      const zero = options.notZero === true && /^0x0{40}$/.test(String(value));
      const problem = checkEvmAddress(value) ?? (zero ? "is the zero address" : null);
      return problem === null ? { value: normalizeEvmAddress(value as string) } : { problem };
    },
    "",
    options.optional === true ? { default: "" } : {},
  );
}

const evmFields = z.object({
  chainId: integer(1),
  rpcUrls: urlList(true),
  /** Ceiling for maxFeePerGas, wei. */
  maxFeePerGasWei: amount({ default: 100_000_000_000n, min: 1n }),
  /**
   * Actions one transaction carries at most: redeems and refunds batch through Multicall3, fills only with
   * `batchFills`. 1 sends every action alone. Unset in a config built in code: 50 (src/chains/evm/batch).
   */
  maxBatch: integer(1, MAX_EVM_BATCH, { default: DEFAULT_EVM_BATCH }),
  /** `eip7702`: fills batch through the account's delegation to `batchExecutor`; `none` (default): one per transaction. */
  batchFills: oneOf(EVM_BATCH_FILLS, { default: "none" }),
  /** The project's BatchExecutor on this chain, which the account delegates to; required with `eip7702`. */
  batchExecutor: evmAddress({ optional: true }),
});

type EvmFields = z.output<typeof evmFields>;

/** Configs built in code may leave the batching out; loading always states it. */
export type EvmChainConfig = WithOptional<
  CommonChainConfig & EvmFields & { family: "evm" },
  "maxBatch" | "batchFills" | "batchExecutor"
>;

/**
 * The native coin is written `native` or as the 0xEeee… sentinel, and stored as the sentinel; a token not
 * published is written "service" (src/chains/evm/service-addresses.ts).
 */
const tokenAddress = setting<string>((value) => {
  if (value === "native" || (typeof value === "string" && isNativeToken(value)))
    return { value: NATIVE_TOKEN_ADDRESS };
  if (value === FROM_SERVICE) return { value: FROM_SERVICE };
  const problem = checkEvmAddress(value);
  return problem === null
    ? { value: normalizeEvmAddress(value as string) }
    : { problem: `${problem}, nor "native" or "${FROM_SERVICE}"` };
}, "");

export const evmConfigSpec = {
  name: "evm",
  fields: evmFields,
  commonDefaults: { finalityDepth: 12, bumpAfterMs: 60_000, maxHeadLagBlocks: 3, rpcTimeoutMs: 15_000 },
  defaultMaxHeadAgeMs,
  assetAddresses: () =>
    z.object({
      tokenAddress,
      htlcAddress: evmAddress({ notZero: true, fromService: true }),
    }),
  checkKnownNetwork: knownNetworkProblems,
  settle: (chain, report) => {
    if (chain.batchFills === "eip7702" && chain.batchExecutor === "")
      report(
        "batchExecutor",
        'is required with batchFills "eip7702": the BatchExecutor the account delegates to',
      );
  },
  networkKey: "chainId",
  key: {
    doc: "Private key (32-byte hex) for every EVM chain.",
    env: "SOLVER_EVM_PRIVATE_KEY",
    keyFileForm: "<hex>",
    normalize: (value) => {
      const read = readSecp256k1Key(value);
      return "value" in read ? { value: `0x${read.value}` } : read;
    },
  },
  endpointVariables: [{ suffix: "RPC_URLS", key: "rpcUrls", list: true }],
  readsPriceFeeds: true,
} satisfies ChainConfigSpec<"evm", EvmChainConfig>;
