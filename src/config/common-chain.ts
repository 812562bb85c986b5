/**
 * The settings every chain has, whatever its family, and those of its assets: declared and checked once
 * here; each family adds its own (src/chains/<family>/family.ts) through its ChainConfigSpec.
 */
import { z } from "zod";
import type { CommonChainDefaults } from "./chain-spec.js";
import { describeValue } from "./checks.js";
import { settingsObject, whenObject } from "./zod/objects.js";
import { integer, list, parseNested, text } from "./zod/values.js";

export const CHAIN_NAME = /^[a-z][a-z0-9_]*$/;
export const CHAIN_NAME_HINT = "must be lower-case letters, digits and '_', starting with a letter";
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface AssetConfig {
  /** Asset id as in the API: `<chain>:<symbol>`. */
  id: string;
  chain: string;
  symbol: string;
  decimals: number;
  /**
   * Token contract, or the family's name of its own coin; its form is the family's (its `assetAddresses`).
   * FROM_SERVICE until the start resolves it, where the family allows that.
   */
  tokenAddress: string;
  /** HTLC contract or program of the asset, where the family has one; empty otherwise; or FROM_SERVICE as above. */
  htlcAddress: string;
}

/**
 * An asset address written as this is not published: the solver reads it from the service's
 * `GET /v2/assets` at start and accepts it only after checking the contract at it (the family's check).
 */
export const FROM_SERVICE = "service";

const assetShape = {
  id: z.unknown().optional(),
  chain: z.unknown().optional(),
  symbol: text({ pattern: SYMBOL, hint: "must be letters, digits, '.', '_' or '-'" }),
  decimals: integer(0, 36),
  tokenAddress: z.unknown().optional(),
  htlcAddress: z.unknown().optional(),
};

export const ASSET_KEYS = Object.keys(assetShape);

/** The settings of an asset; `addresses` are the family's rules for its token and HTLC. */
export function assetSchema(chain: string, addresses: AssetAddressRules) {
  const schema = settingsObject(assetShape, "an asset").superRefine((asset, ctx) => {
    const id = `${chain}:${asset.symbol}`;
    if (asset.id !== undefined && asset.id !== id)
      ctx.addIssue({ code: "custom", path: ["id"], message: `${describeValue(asset.id)} must be "${id}"` });
    if (asset.chain !== undefined && asset.chain !== chain) {
      const message = `${describeValue(asset.chain)} must be "${chain}", the chain it is listed under`;
      ctx.addIssue({ code: "custom", path: ["chain"], message });
    }
    const raw = { tokenAddress: asset.tokenAddress, htlcAddress: asset.htlcAddress };
    Object.assign(
      asset,
      { id, chain },
      parseNested(ctx, addresses, raw, { tokenAddress: "", htlcAddress: "" }),
    );
  }, whenObject);
  // The check above fills in id, chain and the addresses in their stored form.
  return schema as unknown as z.ZodType<AssetConfig, unknown>;
}

/** A family's rules for the token and HTLC addresses of its assets, read from the two raw values. */
export type AssetAddressRules = z.ZodType<Pick<AssetConfig, "tokenAddress" | "htlcAddress">, unknown>;

/** Common chain settings; `defaults` are the family's. */
export function commonChainShape(defaults: CommonChainDefaults, maxFillTimelockBlocks?: number) {
  return {
    name: text({ pattern: CHAIN_NAME, hint: CHAIN_NAME_HINT }),
    /**
     * Shortest plausible block interval: bounds from below how long a source timelock here still lasts.
     * Longest: bounds from above how long a destination timelock here lasts, and sets the default age
     * at which a head is stale.
     */
    minBlockTimeMs: integer(1),
    maxBlockTimeMs: integer(1),
    /** Confirmations (blocks, slots) the solver itself requires on a source here, whatever the service says. */
    minConfirmations: integer(1),
    /**
     * Depth at which a block is taken as final here: the solver follows each of its transactions until it
     * is this deep, and treats a transaction displaced by another only once that one is this deep.
     */
    finalityDepth: integer(1, undefined, { default: defaults.finalityDepth }),
    /** Destination timelock the solver sets when it fills here, in blocks (slots). */
    fillTimelockBlocks: integer(1, maxFillTimelockBlocks),
    /** A pending transaction older than this is looked at again (re-priced where the family can). */
    bumpAfterMs: integer(1000, undefined, { default: defaults.bumpAfterMs }),
    /** An endpoint whose head is more blocks than this below the best endpoint's is not read from. */
    maxHeadLagBlocks: integer(0, undefined, { default: defaults.maxHeadLagBlocks }),
    /**
     * A head whose block is older than this by the wall clock is stale (src/chains/rpc/head-age.ts): no tip
     * is counted from it. Unset in a config built in code: the family's default from `maxBlockTimeMs`.
     */
    maxHeadAgeMs: integer(1).optional(),
    /** Per-request timeout of each endpoint. */
    rpcTimeoutMs: integer(100, undefined, { default: defaults.rpcTimeoutMs }),
    /**
     * The symbol of the chain's coin where no asset lists it (a chain whose coin the service does not
     * trade): its fees are priced under `<chain>:<symbol>` in fixedPrices or prices.assets, and it is
     * never quoted or filled (src/chains/coins.ts).
     */
    coinSymbol: text({ pattern: SYMBOL, hint: "must be letters, digits, '.', '_' or '-'" }).optional(),
    assets: list(z.unknown(), true),
  };
}

type CommonShape = ReturnType<typeof commonChainShape>;

/** The common settings of a chain as the solver receives them. */
export type CommonChainConfig = Omit<z.output<z.ZodObject<CommonShape>>, "assets"> & {
  family: string;
  assets: AssetConfig[];
};
