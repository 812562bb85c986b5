/**
 * A Starknet chain's settings besides the common ones (src/config/common-chain.ts), its assets' address
 * rules and its key: what the configuration asks of the family. Timelocks and confirmations are in
 * blocks. Fees are paid in STRK and counted in FRI (10^-18 STRK).
 */
import { z } from "zod";
import type { ChainConfigSpec } from "../../config/chain-spec.js";
import { describeValue } from "../../config/checks.js";
import type { AssetConfig, CommonChainConfig } from "../../config/common-chain.js";
import { amount, integer, oneOf, setting, urlList } from "../../config/zod/values.js";
import { defaultMaxHeadAgeMs } from "../rpc/head-age.js";
import { normalizeAddress } from "./felt.js";
import { readStarkKey } from "./key.js";
import { knownStarknetProblems } from "./known-networks.js";
import { ORDER_ID_LAYOUTS } from "./order-id.js";

/** Block statuses a transaction or lock may be taken as final at. */
export const STARKNET_FINALITIES = ["ACCEPTED_ON_L2", "ACCEPTED_ON_L1"] as const;
export type StarknetFinality = (typeof STARKNET_FINALITIES)[number];

/** STRK, the fee token, at the same address on Starknet mainnet and Sepolia (docs/live-networks.md). */
export const STRK_TOKEN_ADDRESS = normalizeAddress(
  "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d",
  "STRK",
);

/** The symbol of the chain's coin among its assets. */
export const STRK_SYMBOL = "strk";

/** A non-zero felt address, stored as `0x` and 64 lower-case digits. */
const address = (options: { default?: string } = {}) =>
  setting<string>(
    (value) => {
      if (typeof value !== "string") return { problem: `${describeValue(value)} must be a string` };
      try {
        const stored = normalizeAddress(value, "address");
        return BigInt(stored) === 0n ? { problem: "is the zero address" } : { value: stored };
      } catch {
        return {
          problem: `${describeValue(value)} is not a Starknet address (0x and up to 64 hex digits, below the field's prime)`,
        };
      }
    },
    "",
    options,
  );

/** A short string of a Starknet chain id: upper-case letters, digits and '_', at most 31 characters. */
const chainId = setting<string>(
  (value) =>
    typeof value === "string" && /^[A-Z][A-Z0-9_]{0,30}$/.test(value)
      ? { value }
      : {
          problem: `${describeValue(value)} must be a chain id short string such as "SN_MAIN" or "SN_SEPOLIA"`,
        },
  "",
);

const starknetFields = z.object({
  /** The chain id short string, hashed into order ids and SNIP-12 messages. */
  chainId,
  rpcUrls: urlList(true),
  /** The solver's account contract, whose Stark key is SOLVER_STARKNET_PRIVATE_KEY. */
  accountAddress: address(),
  /** Which HTLC contract version the chain's assets run: how order ids and signed messages are made. */
  orderIdLayout: oneOf(ORDER_ID_LAYOUTS),
  /**
   * The block status at which a lock or transaction counts as final: `ACCEPTED_ON_L2` once
   * `finalityDepth` blocks deep, or `ACCEPTED_ON_L1`.
   */
  finality: oneOf(STARKNET_FINALITIES, { default: "ACCEPTED_ON_L2" }),
  /** The ERC20 fees are paid in (STRK). */
  feeTokenAddress: address({ default: STRK_TOKEN_ADDRESS }),
  /** Ceilings of the price per unit the solver bids for each resource, FRI. */
  maxL1GasPriceFri: amount({ default: 1_000_000_000_000_000n, min: 1n }),
  maxL2GasPriceFri: amount({ default: 100_000_000_000n, min: 1n }),
  maxL1DataGasPriceFri: amount({ default: 100_000_000_000_000n, min: 1n }),
  /** Ceiling of the most one transaction may be charged (bounds and tip), FRI. */
  maxFeeFri: amount({ default: 10_000_000_000_000_000_000n, min: 1n }),
  /** Margin over the node's estimate of amounts and prices, percent. */
  feeMarginPercent: integer(0, 1000, { default: 50 }),
  /** How much a replacement raises its tip and L2 gas price, percent; the node takes no less than 10. */
  escalationPercent: integer(10, 1000, { default: 25 }),
});

export type StarknetChainConfig = CommonChainConfig &
  z.output<typeof starknetFields> & { family: "starknet" };

/** The configured asset that is STRK, by its symbol; `settle` holds it to the fee token's address. */
export function starknetCoin(assets: readonly AssetConfig[]): AssetConfig | undefined {
  return assets.find((asset) => asset.symbol.toLowerCase() === STRK_SYMBOL);
}

export const starknetConfigSpec = {
  name: "starknet",
  fields: starknetFields,
  // Blocks come every few seconds; a head further than 10 behind the best endpoint's is not read from.
  commonDefaults: { finalityDepth: 10, bumpAfterMs: 60_000, maxHeadLagBlocks: 10, rpcTimeoutMs: 15_000 },
  defaultMaxHeadAgeMs,
  assetAddresses: () => z.object({ tokenAddress: address(), htlcAddress: address() }),
  checkKnownNetwork: knownStarknetProblems,
  settle: (chain, report) => {
    chain.assets.forEach((asset, index) => {
      if (asset.symbol.toLowerCase() === STRK_SYMBOL && asset.tokenAddress !== chain.feeTokenAddress)
        report(
          `assets[${index}].tokenAddress`,
          `"${asset.tokenAddress}" must be the fee token ${chain.feeTokenAddress}: ${asset.symbol} is the chain's coin`,
        );
      if (asset.tokenAddress === asset.htlcAddress)
        report(`assets[${index}].htlcAddress`, "must differ from tokenAddress");
    });
    if (new Set(chain.assets.map((a) => a.htlcAddress)).size !== chain.assets.length)
      report("assets", "list an HTLC twice: the contract holds one token");
  },
  networkKey: "chainId",
  key: {
    doc: "Stark private key (32-byte hex) of the solver's account on every Starknet chain.",
    env: "SOLVER_STARKNET_PRIVATE_KEY",
    keyFileForm: "<hex>",
    normalize: (value) => {
      const reading = readStarkKey(value);
      return "key" in reading
        ? { value: reading.key }
        : { problem: `is not a Stark private key: it ${reading.problem} (value not shown)` };
    },
  },
  endpointVariables: [
    { suffix: "RPC_URLS", key: "rpcUrls", list: true },
    // The account is the operator's own, not a published fact: profiles leave it to the environment.
    { suffix: "ACCOUNT_ADDRESS", key: "accountAddress", list: false },
  ],
  readsPriceFeeds: false,
} satisfies ChainConfigSpec<"starknet", StarknetChainConfig>;
