import { btcToSats } from "htlc-solver/chains/bitcoin/rpc.js";
import { RPC_CODE, RpcMethodError } from "./errors.js";

/**
 * Parameters of one call, positional or named (bitcoind accepts both). Numbers with a fraction
 * arrive as decimal strings (the request is parsed losslessly), which the amount readers expect.
 */
export class RpcParams {
  constructor(
    private readonly method: string,
    private readonly names: readonly string[],
    private readonly raw: unknown[] | Record<string, unknown>,
  ) {
    const count = Array.isArray(raw) ? raw.length : Object.keys(raw).length;
    if (count > names.length) {
      throw new RpcMethodError(
        RPC_CODE.MISC_ERROR,
        `${method} takes at most ${names.length} parameters (${names.join(", ")})`,
      );
    }
    if (!Array.isArray(raw)) {
      const unknown = Object.keys(raw).filter((k) => !names.includes(k));
      if (unknown.length > 0)
        throw new RpcMethodError(RPC_CODE.MISC_ERROR, `Unknown named parameter ${unknown[0]}`);
    }
  }

  get(index: number): unknown {
    if (Array.isArray(this.raw)) return this.raw[index];
    const name = this.names[index];
    return name === undefined ? undefined : this.raw[name];
  }

  has(index: number): boolean {
    const value = this.get(index);
    return value !== undefined && value !== null;
  }

  #required(index: number): unknown {
    if (!this.has(index)) {
      throw new RpcMethodError(
        RPC_CODE.MISC_ERROR,
        `${this.method}: missing required parameter ${this.names[index]}`,
      );
    }
    return this.get(index);
  }

  #typeError(index: number, expected: string): RpcMethodError {
    return new RpcMethodError(
      RPC_CODE.TYPE_ERROR,
      `JSON value of type ${typeof this.get(index)} for parameter ${this.names[index]} is not of expected type ${expected}`,
    );
  }

  string(index: number): string {
    const value = this.#required(index);
    if (typeof value !== "string") throw this.#typeError(index, "string");
    return value;
  }

  int(index: number, fallback?: number): number {
    if (!this.has(index) && fallback !== undefined) return fallback;
    const value = this.#required(index);
    if (typeof value !== "number" || !Number.isInteger(value)) throw this.#typeError(index, "number");
    return value;
  }

  bool(index: number, fallback: boolean): boolean {
    if (!this.has(index)) return fallback;
    const value = this.get(index);
    if (typeof value !== "boolean") throw this.#typeError(index, "bool");
    return value;
  }

  array(index: number): unknown[] {
    const value = this.#required(index);
    if (!Array.isArray(value)) throw this.#typeError(index, "array");
    return value;
  }

  /** A BTC amount given as number or string, in sats; `fallback` when absent. */
  amount(index: number, fallback: bigint): bigint {
    if (!this.has(index)) return fallback;
    const value = this.get(index);
    if (typeof value !== "number" && typeof value !== "string") throw this.#typeError(index, "amount");
    try {
      const sats = btcToSats(value);
      if (sats < 0n) throw new Error("negative");
      return sats;
    } catch {
      throw new RpcMethodError(RPC_CODE.TYPE_ERROR, "Invalid amount");
    }
  }

  /** A 64-hex-character hash (txid or block hash), as bitcoind's ParseHashV checks it. */
  hash(index: number): string {
    const value = this.string(index);
    const name = this.names[index];
    if (value.length !== 64) {
      throw new RpcMethodError(
        RPC_CODE.INVALID_PARAMETER,
        `${name} must be of length 64 (not ${value.length}, for '${value}')`,
      );
    }
    if (!/^[0-9a-fA-F]{64}$/.test(value)) {
      throw new RpcMethodError(
        RPC_CODE.INVALID_PARAMETER,
        `${name} must be hexadecimal string (not '${value}')`,
      );
    }
    return value.toLowerCase();
  }
}
