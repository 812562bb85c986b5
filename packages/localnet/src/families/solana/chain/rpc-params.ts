/** Reading JSON-RPC params the way the Solana RPC does: positional values and an optional config object. */
import { PublicKey } from "@solana/web3.js";
import { base58Decode } from "./base58.js";
import type { Commitment, LocalSolanaChain } from "./chain.js";
import { SolanaRpcError, invalidParam, invalidParams } from "./errors.js";

export type Config = Record<string, unknown>;

export class Params {
  constructor(private readonly values: unknown[]) {}

  raw(index: number): unknown {
    return this.values[index];
  }

  string(index: number, what: string): string {
    const value = this.values[index];
    if (typeof value !== "string") throw invalidParams(`${what} must be a string`);
    return value;
  }

  pubkey(index: number, what = "address"): PublicKey {
    return parsePubkey(this.string(index, what));
  }

  config(index: number): Config {
    const value = this.values[index];
    if (value === undefined || value === null) return {};
    if (typeof value !== "object" || Array.isArray(value))
      throw invalidParams("the config must be an object");
    return value as Config;
  }

  stringArray(index: number, what: string): string[] {
    const value = this.values[index];
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      throw invalidParams(`${what} must be an array of strings`);
    }
    return value as string[];
  }

  /** A transaction signature, refused as a real node refuses it (its ParseSignatureError in the message). */
  signature(index: number): string {
    return parseSignature(this.string(index, "signature"));
  }

  signatureArray(index: number): string[] {
    return this.stringArray(index, "signatures").map(parseSignature);
  }

  integer(index: number, what: string): bigint {
    const value = this.values[index];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw invalidParams(`${what} must be a non-negative integer`);
    }
    return BigInt(value);
  }
}

export function parsePubkey(text: string): PublicKey {
  try {
    return new PublicKey(text);
  } catch {
    throw invalidParam("Invalid");
  }
}

/** Base58 of 64 bytes takes at most 88 characters. */
const MAX_BASE58_SIGNATURE_LENGTH = 88;

export function parseSignature(text: string): string {
  if (text.length > MAX_BASE58_SIGNATURE_LENGTH) throw invalidParam("WrongSize");
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(text);
  } catch {
    throw invalidParam("Invalid");
  }
  if (bytes.length !== 64) throw invalidParam("WrongSize");
  return text;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: "processed",
  confirmed: "confirmed",
  finalized: "finalized",
  // Names older clients still send.
  recent: "processed",
  single: "confirmed",
  singleGossip: "confirmed",
  root: "finalized",
  max: "finalized",
};

/** The config's commitment; the RPC's default is finalized. */
export function commitmentOf(config: Config, fallback: Commitment = "finalized"): Commitment {
  const value = config.commitment ?? config.preflightCommitment;
  if (value === undefined) return fallback;
  const commitment = typeof value === "string" ? COMMITMENTS[value] : undefined;
  if (commitment === undefined) throw invalidParams(`unknown commitment ${String(value)}`);
  return commitment;
}

/** Context slot for a commitment level, honouring minContextSlot as the RPC does. */
export function contextSlot(
  chain: LocalSolanaChain,
  config: Config,
  commitment = commitmentOf(config),
): bigint {
  const slot = chain.currentSlot(commitment);
  const min = config.minContextSlot;
  if (typeof min === "number" && BigInt(min) > slot) {
    throw new SolanaRpcError(-32016, "Minimum context slot has not been reached", { contextSlot: slot });
  }
  return slot;
}

export const API_VERSION = "4.2.1";

export function withContext<T>(
  slot: bigint,
  value: T,
): { context: { apiVersion: string; slot: bigint }; value: T } {
  return { context: { apiVersion: API_VERSION, slot }, value };
}

/** Decodes a wire transaction or message in the given RPC encoding ("base58" is the RPC's default). */
export function decodeWire(text: string, encoding: unknown): Uint8Array {
  if (encoding === undefined || encoding === "base58") return base58Decode(text);
  if (encoding === "base64") return new Uint8Array(Buffer.from(text, "base64"));
  throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
}
