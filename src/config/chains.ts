/**
 * The `chains` list: each chain read with the common settings and its family's (a ChainConfigSpec), its
 * assets with the family's address rules; names unique across chains, and no network configured twice.
 */
import { z } from "zod";
import type { ChainConfigSpec } from "./chain-spec.js";
import { describeValue } from "./checks.js";
import {
  assetSchema,
  CHAIN_NAME,
  CHAIN_NAME_HINT,
  commonChainShape,
  type AssetConfig,
  type CommonChainConfig,
} from "./common-chain.js";
import type { Problems } from "./errors.js";
import { isRawObject, type RawObject } from "./raw.js";
import { addIssues } from "./zod/issues.js";
import { always, settingsObject } from "./zod/objects.js";
import { parseNested, text } from "./zod/values.js";

/** A chain of some family, as the loader reads it. */
export type LoadedChain = CommonChainConfig & object;

/** Every setting a chain of this family may have: the common ones and the family's. */
export function chainSettingKeys(spec: ChainConfigSpec): string[] {
  return ["family", ...Object.keys(commonChainShape(spec.commonDefaults)), ...Object.keys(spec.fields.shape)];
}

/** One family's chain schema: common settings, the family's, assets, and the checks across them. */
export function chainSchema<Config extends CommonChainConfig>(spec: ChainConfigSpec<string, Config>) {
  const schema = settingsObject(
    {
      family: z.literal(spec.name),
      ...commonChainShape(spec.commonDefaults, spec.maxFillTimelockBlocks),
      ...spec.fields.shape,
    },
    `${/^[aeiou]/.test(spec.name) ? "an" : "a"} ${spec.name} chain`,
  ).superRefine((read, ctx) => {
    // The family's fields make the shape generic; the common ones are known.
    const chain = read as unknown as Omit<CommonChainConfig, "assets"> & { assets: unknown[] };
    const { minBlockTimeMs, maxBlockTimeMs } = chain;
    if (minBlockTimeMs > maxBlockTimeMs) {
      const message = `${minBlockTimeMs} must not exceed maxBlockTimeMs ${maxBlockTimeMs}`;
      ctx.addIssue({ code: "custom", path: ["minBlockTimeMs"], message });
    }
    const maxHeadAgeMs = chain.maxHeadAgeMs ?? spec.defaultMaxHeadAgeMs(maxBlockTimeMs);
    if (maxHeadAgeMs < maxBlockTimeMs) {
      const message = `${maxHeadAgeMs} must be at least maxBlockTimeMs ${maxBlockTimeMs}`;
      ctx.addIssue({ code: "custom", path: ["maxHeadAgeMs"], message });
    }
    const rules = assetSchema(chain.name, spec.assetAddresses(chain as unknown as Config));
    const assets: AssetConfig[] = [];
    chain.assets.forEach((raw: unknown, index: number) => {
      const asset = parseNested(ctx, rules, raw, null, ["assets", index]);
      if (asset === null) return;
      if (assets.some((a) => a.symbol === asset.symbol)) {
        const message = `"${asset.symbol}" is listed twice`;
        ctx.addIssue({ code: "custom", path: ["assets", index, "symbol"], message });
      }
      assets.push(asset);
    });
    Object.assign(chain, { maxHeadAgeMs, assets });
    spec.settle?.(chain as unknown as Config, (key, message) =>
      ctx.addIssue({ code: "custom", path: [key], message }),
    );
  }, always);
  // The check above fills in the head age, replaces the raw assets by the read ones and lets the family settle.
  return schema as unknown as z.ZodType<Config, unknown>;
}

export interface ChainsRead {
  chains: LoadedChain[];
  /**
   * What could be told of every listed chain, read or not (a family not known, a setting wrong): its name,
   * family and asset ids, so that a reference to one of them is not reported again.
   */
  listed: { name: string; family: string; assetIds: string[]; coinId: string | null }[];
}

function listedChain(raw: unknown): ChainsRead["listed"][number] {
  const chain: RawObject = isRawObject(raw) ? raw : {};
  const name = typeof chain.name === "string" ? chain.name : "";
  const assets = Array.isArray(chain.assets) ? chain.assets : [];
  return {
    name,
    family: typeof chain.family === "string" ? chain.family : "",
    assetIds: assets.flatMap((a: unknown) =>
      name !== "" && isRawObject(a) && typeof a.symbol === "string" ? [`${name}:${a.symbol}`] : [],
    ),
    coinId: name !== "" && typeof chain.coinSymbol === "string" ? `${name}:${chain.coinSymbol}` : null,
  };
}

/** A chain of no known family: only its name is read. */
const nameOnly = z.looseObject({ name: text({ pattern: CHAIN_NAME, hint: CHAIN_NAME_HINT }) });

/** The spec of the chain's family, or null after naming the known families. */
function familyOf(
  problems: Problems,
  path: string,
  raw: RawObject,
  specs: readonly ChainConfigSpec[],
): ChainConfigSpec | null {
  const spec = specs.find((s) => s.name === raw.family);
  if (spec !== undefined) return spec;
  const known = specs.map((s) => s.name).join(", ");
  problems.add(`${path}.family`, `${describeValue(raw.family)} must be one of ${known}`);
  return null;
}

/** Chains with their assets; names unique, and each family's network setting unique among its chains. */
export function readChains(problems: Problems, raw: unknown, specs: readonly ChainConfigSpec[]): ChainsRead {
  const chains: LoadedChain[] = [];
  if (!Array.isArray(raw)) {
    problems.add("chains", `${describeValue(raw)} must be an array of chains`);
    return { chains, listed: [] };
  }
  if (raw.length === 0) problems.add("chains", "must list at least one chain");
  raw.forEach((value, index) => {
    const path = `chains[${index}]`;
    if (!isRawObject(value)) {
      problems.add(path, `${describeValue(value)} must be an object (a chain)`);
      return;
    }
    const spec = familyOf(problems, path, value, specs);
    const result = (spec === null ? nameOnly : chainSchema(spec)).safeParse(value);
    if (!result.success) addIssues(problems, path, result.error.issues);
    const name = value.name;
    if (typeof name === "string" && raw.slice(0, index).some((c) => isRawObject(c) && c.name === name))
      problems.add(`${path}.name`, `"${name}" is used by another chain`);
    if (spec === null || !result.success) return;
    const network = spec.networkKey;
    const chain = result.data as LoadedChain;
    spec.checkKnownNetwork?.(chain, (key, message) => problems.add(`${path}.${key}`, message));
    const record = chain as LoadedChain & Record<string, unknown>;
    const same = chains.find(
      (c) =>
        network !== undefined && c.family === spec.name && (c as typeof record)[network] === record[network],
    );
    if (same !== undefined && network !== undefined)
      problems.add(`${path}.${network}`, `${describeValue(value[network])} is also ${same.name}'s`);
    chains.push(chain);
  });
  return { chains, listed: raw.map(listedChain) };
}
