/** An amount the operator types, in an asset's units (`1.5`), read exactly into its smallest units. */
import type { AssetConfig } from "../config/types.js";
import { UsageError } from "./command.js";

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `text` of `asset` in smallest units; refuses a negative, malformed or zero amount, or one finer than the asset. */
export function parseAssetAmount(text: string, asset: AssetConfig, what = "--amount"): bigint {
  const match = DECIMAL.exec(text);
  if (match === null)
    throw new UsageError(
      `${what} must be a decimal amount like 1.5 in ${asset.symbol}, not ${JSON.stringify(text)}`,
    );
  const fraction = match[2] ?? "";
  if (fraction.length > asset.decimals)
    throw new UsageError(
      `${what} ${text} has ${fraction.length} decimals; ${asset.id} has ${asset.decimals}`,
    );
  const units = BigInt(`${match[1] ?? "0"}${fraction.padEnd(asset.decimals, "0")}`);
  if (units === 0n) throw new UsageError(`${what} must be more than 0`);
  return units;
}
