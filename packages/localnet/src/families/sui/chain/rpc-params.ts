/** Positional JSON-RPC params as Sui's spec orders them, with a clear error naming each bad value. */
import { isValidSuiAddress, normalizeSuiAddress } from "@mysten/sui/utils";
import { invalidParams } from "./errors.js";

export class Params {
  private constructor(private readonly values: unknown[]) {}

  static of(params: unknown): Params {
    if (params === undefined) return new Params([]);
    if (!Array.isArray(params))
      throw invalidParams("params must be an array (Sui's methods take positional params)");
    return new Params(params);
  }

  optional(index: number): unknown {
    const value = this.values[index];
    return value === null ? undefined : value;
  }

  required(index: number, name: string): unknown {
    const value = this.optional(index);
    if (value === undefined) throw invalidParams(`missing parameter ${name}`);
    return value;
  }

  string(index: number, name: string): string {
    const value = this.required(index, name);
    if (typeof value !== "string")
      throw invalidParams(`${name} must be a string, got ${JSON.stringify(value)}`);
    return value;
  }

  address(index: number, name: string): string {
    return parseAddress(this.required(index, name), name);
  }

  object(index: number, name: string): Record<string, unknown> {
    const value = this.optional(index) ?? {};
    if (typeof value !== "object" || Array.isArray(value))
      throw invalidParams(`${name} must be an object, got ${JSON.stringify(value)}`);
    return value as Record<string, unknown>;
  }

  /** A page size: at most 50, as a full node caps it; 50 when absent. */
  limit(index: number): number {
    const value = this.optional(index);
    if (value === undefined) return 50;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
      throw invalidParams(`limit must be a whole number >= 0, got ${JSON.stringify(value)}`);
    return value === 0 ? 50 : Math.min(value, 50);
  }
}

export function parseAddress(value: unknown, name: string): string {
  if (
    typeof value !== "string" ||
    !isValidSuiAddress(normalizeSuiAddress(value)) ||
    !/^0x[0-9a-fA-F]{1,64}$/.test(value)
  )
    throw invalidParams(
      `${name} must be a 0x-prefixed hex Sui address or object id, got ${JSON.stringify(value)}`,
    );
  return normalizeSuiAddress(value);
}
