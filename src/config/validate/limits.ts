import type { Limits } from "../types.js";
import type { Problems } from "../errors.js";
import { checkDecimalString, describeValue, parseAmount } from "./checks.js";
import { isRawObject } from "./fields.js";

function unknownAsset(problems: Problems, path: string, id: string, assetIds: ReadonlySet<string>): boolean {
  if (assetIds.has(id)) return false;
  problems.add(`${path}["${id}"]`, "is not a configured asset (<chain>:<symbol> of chains[].assets)");
  return true;
}

/** A map from configured asset id to an amount in that asset's smallest units. */
export function readAmountMap(
  problems: Problems,
  raw: unknown,
  path: string,
  assetIds: ReadonlySet<string>,
): Record<string, bigint> {
  const result: Record<string, bigint> = {};
  if (!isRawObject(raw)) {
    problems.add(path, `${describeValue(raw)} must be an object of <asset id>: amount`);
    return result;
  }
  for (const [id, value] of Object.entries(raw)) {
    if (unknownAsset(problems, path, id, assetIds)) continue;
    const amount = parseAmount(value);
    if (typeof amount === "bigint") result[id] = amount;
    else problems.add(`${path}["${id}"]`, amount.problem);
  }
  return result;
}

/** USD price per whole unit, kept as the exact decimal string the operator wrote. */
export function readFixedPrices(
  problems: Problems,
  raw: unknown,
  assetIds: ReadonlySet<string>,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (!isRawObject(raw)) {
    problems.add("fixedPrices", `${describeValue(raw)} must be an object of <asset id>: "USD price"`);
    return result;
  }
  for (const [id, value] of Object.entries(raw)) {
    if (unknownAsset(problems, "fixedPrices", id, assetIds)) continue;
    const problem = checkDecimalString(value);
    if (problem === null) result[id] = value as string;
    else problems.add(`fixedPrices["${id}"]`, problem);
  }
  return result;
}

export function readLimits(problems: Problems, raw: unknown, assetIds: ReadonlySet<string>): Limits {
  const limits = isRawObject(raw) ? raw : {};
  // The schema's amount format has already reported a bad value here.
  const inFlight = parseAmount(limits.maxInFlightUsdCents);
  return {
    maxOrderAmount: readAmountMap(problems, limits.maxOrderAmount, "limits.maxOrderAmount", assetIds),
    inventoryFloor: readAmountMap(problems, limits.inventoryFloor, "limits.inventoryFloor", assetIds),
    maxInFlightUsdCents: typeof inFlight === "bigint" ? inFlight : 0n,
  };
}
