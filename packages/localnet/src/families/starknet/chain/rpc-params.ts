/** JSON-RPC params by position or by name, as the Starknet spec allows, with a clear error per bad value. */
import type { BlockId } from "./chain.js";
import { invalidParams } from "./errors.js";
import { parseFeltHex } from "./felt.js";

export class Params {
  private constructor(
    private readonly positional: unknown[] | undefined,
    private readonly named: Record<string, unknown> | undefined,
  ) {}

  static of(params: unknown): Params {
    if (params === undefined) return new Params([], undefined);
    if (Array.isArray(params)) return new Params(params, undefined);
    if (typeof params === "object" && params !== null)
      return new Params(undefined, params as Record<string, unknown>);
    throw invalidParams("params must be an array or an object");
  }

  /** The parameter at `index`, or named `name`; undefined when absent. */
  optional(index: number, name: string): unknown {
    return this.positional !== undefined ? this.positional[index] : this.named?.[name];
  }

  required(index: number, name: string): unknown {
    const value = this.optional(index, name);
    if (value === undefined) throw invalidParams(`missing parameter ${name}`);
    return value;
  }

  felt(index: number, name: string): bigint {
    return parseFelt(this.required(index, name), name);
  }

  blockId(index: number, name = "block_id"): BlockId {
    return parseBlockId(this.required(index, name), name);
  }
}

export function parseFelt(value: unknown, what: string): bigint {
  const felt = typeof value === "string" ? parseFeltHex(value) : undefined;
  if (felt === undefined)
    throw invalidParams(`${what} must be a 0x-prefixed hex felt, got ${JSON.stringify(value)}`);
  return felt;
}

export function parseFeltList(value: unknown, what: string): bigint[] {
  if (!Array.isArray(value)) throw invalidParams(`${what} must be an array of felts`);
  return value.map((item, i) => parseFelt(item, `${what}[${i}]`));
}

export function parseBlockId(value: unknown, what: string): BlockId {
  if (value === "latest" || value === "pre_confirmed" || value === "l1_accepted") return value;
  if (typeof value === "object" && value !== null) {
    const id = value as Record<string, unknown>;
    if (typeof id.block_number === "number" && Number.isSafeInteger(id.block_number) && id.block_number >= 0)
      return { blockNumber: BigInt(id.block_number) };
    if (id.block_hash !== undefined) return { blockHash: parseFelt(id.block_hash, `${what}.block_hash`) };
  }
  throw invalidParams(
    `${what} must be "latest", "pre_confirmed", "l1_accepted", {block_number} or {block_hash}, got ${JSON.stringify(value)}`,
  );
}
