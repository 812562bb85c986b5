/**
 * The Solana RPC methods the solver uses, over every configured endpoint as one (see endpoint-pool.ts):
 * reads go to a current endpoint with failover, reads that must agree run on one endpoint (`sticky`),
 * and transactions are sent through every endpoint. Every answer is checked against its shape before
 * use; amounts and slots come back as bigints.
 *
 * @solana/web3.js builds, signs and serialises transactions; its `Connection` is not used, since it
 * speaks to one URL and cannot be told which answers need a current node or must agree.
 */
import { PublicKey } from "@solana/web3.js";
import type { Logger } from "pino";
import type { z } from "zod";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { checkedAnswer, RpcShapeError } from "../rpc/rpc-shape-error.js";
import { EndpointPool, headRefreshFor, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import type { HeadReading } from "../rpc/head-age.js";
import { SolanaRpcEndpoint, SolanaRpcError } from "./rpc-endpoint.js";
import {
  accountInfoSchema,
  balanceSchema,
  latestBlockhashSchema,
  prioritizationFeesSchema,
  signatureInfoSchema,
  signatureStatusesSchema,
  simulationSchema,
  transactionSchema,
  u64Number,
  type SignatureInfo,
  type SignatureStatus,
  type SimulationAnswer,
  type TransactionAnswer,
} from "./rpc-schemas.js";
import type { SolanaChainConfig } from "./config.js";

export type ReadCommitment = "processed" | "confirmed" | "finalized";

export interface SolanaAccount {
  lamports: bigint;
  owner: PublicKey;
  data: Uint8Array;
}

export interface SolanaRpcOptions {
  logger?: Logger;
  /** Pool settings beyond what the chain config says (tests shorten waits with these). */
  pool?: Partial<EndpointPoolOptions<SolanaRpcEndpoint>>;
  fetchImpl?: typeof fetch;
}

/**
 * An endpoint's slot at a commitment, timed by its block's time. A slot without a block (skipped) or one
 * the node no longer keeps has no time to tell: that head is not judged by it.
 */
async function slotHead(endpoint: SolanaRpcEndpoint, commitment: ReadCommitment): Promise<HeadReading> {
  const slot = Number(u64Number.parse(await endpoint.request("getSlot", [{ commitment }])));
  let seconds: unknown = null;
  try {
    seconds = await endpoint.request("getBlockTime", [slot]);
  } catch (error) {
    if (!(error instanceof SolanaRpcError)) throw error;
  }
  return { height: slot, timeMs: typeof seconds === "number" ? seconds * 1000 : null };
}

/** Heads are compared about every few slots: a slot is too short a while to ask every endpoint each time. */
const HEAD_REFRESH_SLOTS = 5;
const RENT_CACHE = new Map<string, bigint>();

/** A send the node refused because this very transaction already landed: the broadcast succeeded. */
export function isAlreadyProcessed(error: unknown): boolean {
  if (!(error instanceof SolanaRpcError)) return false;
  const data = error.data as { err?: unknown } | undefined;
  return data?.err === "AlreadyProcessed" || /already been processed/i.test(error.nodeMessage);
}

/** What the RPC needs of a chain's config (the local service gives the same for its own chains). */
export type SolanaRpcConfig = Pick<
  SolanaChainConfig,
  "name" | "rpcUrls" | "rpcTimeoutMs" | "maxHeadLagBlocks" | "minBlockTimeMs"
>;

export class SolanaRpc {
  readonly chain: string;
  readonly pool: EndpointPool<SolanaRpcEndpoint>;

  constructor(config: SolanaRpcConfig, options: SolanaRpcOptions = {}) {
    if (config.rpcUrls.length === 0) throw new Error(`Solana chain ${config.name} has no rpcUrls configured`);
    this.chain = config.name;
    const labels = endpointLabels(config.rpcUrls);
    const endpoints = config.rpcUrls.map(
      (url, i) =>
        new SolanaRpcEndpoint({
          url,
          label: labels[i] ?? url,
          timeoutMs: config.rpcTimeoutMs,
          ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
        }),
    );
    this.pool = new EndpointPool<SolanaRpcEndpoint>({
      chain: config.name,
      endpoints,
      readHead: (e) => slotHead(e, "confirmed"),
      maxHeadLagBlocks: config.maxHeadLagBlocks,
      headRefreshMs: headRefreshFor(config.minBlockTimeMs * HEAD_REFRESH_SLOTS),
      timeoutMs: config.rpcTimeoutMs,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...options.pool,
    });
  }

  /** Runs `fn` with every read inside it on one endpoint (reads that must agree with each other). */
  sticky<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return this.pool.sticky(what, fn);
  }

  async getSlot(commitment: ReadCommitment): Promise<bigint> {
    return this.#call("getSlot", [{ commitment }], u64Number);
  }

  /** The slot of an endpoint whose slot is not stale (EndpointPool.freshHead): timelocks count from it. */
  async freshSlot(commitment: ReadCommitment): Promise<bigint> {
    return BigInt((await this.pool.freshHead("getSlot", (e) => slotHead(e, commitment))).height);
  }

  async getBlockHeight(commitment: ReadCommitment): Promise<bigint> {
    return this.#call("getBlockHeight", [{ commitment }], u64Number);
  }

  /**
   * The account and the slot the node read it at; null when no account lives at the address. With
   * `minContextSlot`, a node that has not reached that slot refuses rather than answer from before it.
   */
  async getAccount(
    address: PublicKey,
    commitment: ReadCommitment,
    minContextSlot?: bigint,
  ): Promise<{ slot: bigint; account: SolanaAccount | null }> {
    const config = {
      commitment,
      encoding: "base64",
      ...(minContextSlot === undefined ? {} : { minContextSlot: Number(minContextSlot) }),
    };
    const answer = await this.#call("getAccountInfo", [address.toBase58(), config], accountInfoSchema);
    const value = answer.value;
    const account =
      value === null
        ? null
        : {
            lamports: value.lamports,
            owner: new PublicKey(value.owner),
            data: new Uint8Array(Buffer.from(value.data[0], "base64")),
          };
    return { slot: answer.context.slot, account };
  }

  async getBalance(
    address: PublicKey,
    commitment: ReadCommitment,
  ): Promise<{ slot: bigint; lamports: bigint }> {
    const answer = await this.#call("getBalance", [address.toBase58(), { commitment }], balanceSchema);
    return { slot: answer.context.slot, lamports: answer.value };
  }

  /**
   * Signatures of transactions that touched the address, newest first: older than `before`, newer than
   * `until`, from a node at `minContextSlot` or later.
   */
  async getSignaturesForAddress(
    address: PublicKey,
    options: {
      commitment: "confirmed" | "finalized";
      limit: number;
      before?: string;
      until?: string;
      minContextSlot?: bigint;
    },
  ): Promise<SignatureInfo[]> {
    const config = {
      commitment: options.commitment,
      limit: options.limit,
      ...(options.before === undefined ? {} : { before: options.before }),
      ...(options.until === undefined ? {} : { until: options.until }),
      ...(options.minContextSlot === undefined ? {} : { minContextSlot: Number(options.minContextSlot) }),
    };
    return this.#call("getSignaturesForAddress", [address.toBase58(), config], signatureInfoSchema.array());
  }

  async getTransaction(
    signature: string,
    commitment: "confirmed" | "finalized",
  ): Promise<TransactionAnswer | null> {
    const config = { commitment, encoding: "json", maxSupportedTransactionVersion: 0 };
    return this.#call("getTransaction", [signature, config], transactionSchema);
  }

  /** Statuses from the node's whole history, not only its recent status cache. */
  async getSignatureStatuses(signatures: readonly string[]): Promise<SignatureStatus[]> {
    if (signatures.length === 0) return [];
    const answer = await this.#call(
      "getSignatureStatuses",
      [signatures, { searchTransactionHistory: true }],
      signatureStatusesSchema,
    );
    return answer.value;
  }

  async getLatestBlockhash(
    commitment: ReadCommitment,
  ): Promise<{ blockhash: string; lastValidBlockHeight: bigint }> {
    return (await this.#call("getLatestBlockhash", [{ commitment }], latestBlockhashSchema)).value;
  }

  /** Runs a signed transaction against the node's current state without landing it. */
  async simulate(wire: Uint8Array): Promise<SimulationAnswer> {
    const config = { encoding: "base64", sigVerify: false, commitment: "processed" };
    const answer = await this.#call(
      "simulateTransaction",
      [Buffer.from(wire).toString("base64"), config],
      simulationSchema,
    );
    return answer.value;
  }

  /** Recent slots' lowest priority fee (micro-lamports per unit) among transactions writing these accounts. */
  async getRecentPrioritizationFees(accounts: readonly PublicKey[]): Promise<bigint[]> {
    const answer = await this.#call(
      "getRecentPrioritizationFees",
      [accounts.map((a) => a.toBase58())],
      prioritizationFeesSchema,
      { current: false },
    );
    return answer.map((entry) => entry.prioritizationFee);
  }

  async getMinimumBalanceForRentExemption(size: number): Promise<bigint> {
    const key = `${this.chain}/${size}`;
    const known = RENT_CACHE.get(key);
    if (known !== undefined) return known;
    const rent = await this.#call("getMinimumBalanceForRentExemption", [size], u64Number, { current: false });
    RENT_CACHE.set(key, rent);
    return rent;
  }

  /**
   * Sends a signed transaction through every endpoint, with preflight (a transaction that would fail is
   * refused by the node, not landed with its fee charged). Returns the signature the node reports.
   */
  async sendTransaction(wire: Uint8Array): Promise<string> {
    const params = [
      Buffer.from(wire).toString("base64"),
      { encoding: "base64", skipPreflight: false, preflightCommitment: "processed", maxRetries: 0 },
    ];
    const answer = await this.pool.broadcast(
      "sendTransaction",
      (endpoint) => endpoint.request("sendTransaction", params),
      { preferAnswer: isAlreadyProcessed },
    );
    if (typeof answer !== "string") {
      throw new RpcShapeError(this.chain, "sendTransaction", `expected a signature, got ${typeof answer}`);
    }
    return answer;
  }

  async #call<T extends z.ZodType>(
    method: string,
    params: unknown[],
    schema: T,
    options = { current: true },
  ): Promise<z.output<T>> {
    const raw = await this.pool.read(method, (endpoint) => endpoint.request(method, params), options);
    return checkedAnswer(this.chain, method, raw, schema);
  }
}
