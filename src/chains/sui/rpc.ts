/**
 * The Sui JSON-RPC methods the solver uses (docs/protocol.md, Sui), over every configured endpoint as one
 * (src/chains/rpc/endpoint-pool.ts): reads go to a current endpoint with failover, transactions through
 * every endpoint. Every answer is checked against its shape before use. The SDK's client is not used: it
 * speaks to one URL and cannot be told which answers need a current node.
 *
 * The head is the latest checkpoint and the clock object's time. The clock (`0x6`) is what `refund`
 * compares against, and every node serves it as an object; a checkpoint's own timestamp would need a
 * second method and trails the clock by up to a checkpoint.
 */
import type { Logger } from "pino";
import type { z } from "zod";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { EndpointPool, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import type { HeadReading } from "../rpc/head-age.js";
import { JsonRpcEndpoint } from "../rpc/json-rpc-endpoint.js";
import { checkedAnswer, RpcShapeError } from "../rpc/rpc-shape-error.js";
import { SUI_CLOCK } from "./address.js";
import { SuiRpcError } from "./errors.js";
import {
  balanceSchema,
  clockFieldsSchema,
  coinPageSchema,
  dryRunSchema,
  objectResponseSchema,
  transactionResponseSchema,
  u64Text,
  type CoinPage,
  type ObjectResponse,
  type TransactionResponse,
} from "./rpc-schemas.js";
import { SUI_MAX_HEAD_AGE_MS, type SuiChainConfig } from "./config.js";

/** Heads are read again this often: checkpoints come a few times a second. */
const HEAD_REFRESH_MS = 1_000;
/** Coins one page asks for: the node's most. */
const COINS_PAGE = 50;

export interface SuiRpcOptions {
  logger?: Logger;
  pool?: Partial<EndpointPoolOptions<JsonRpcEndpoint>>;
  fetchImpl?: typeof fetch;
}

export type SuiRpcConfig = Pick<
  SuiChainConfig,
  "name" | "rpcUrls" | "rpcTimeoutMs" | "maxHeadLagBlocks" | "maxHeadAgeMs"
>;

/** The clock object's time, ms, from a `sui_getObject` answer. */
function clockMsOf(chain: string, answer: ObjectResponse): bigint {
  const fields = "data" in answer ? answer.data.content?.fields : undefined;
  return checkedAnswer(chain, "sui_getObject(0x6)", fields, clockFieldsSchema).timestamp_ms;
}

export class SuiRpc {
  readonly chain: string;
  readonly pool: EndpointPool<JsonRpcEndpoint>;

  constructor(config: SuiRpcConfig, options: SuiRpcOptions = {}) {
    if (config.rpcUrls.length === 0) throw new Error(`Sui chain ${config.name} has no rpcUrls configured`);
    this.chain = config.name;
    const labels = endpointLabels(config.rpcUrls);
    const endpoints = config.rpcUrls.map(
      (url, i) =>
        new JsonRpcEndpoint(
          {
            url,
            label: labels[i] ?? url,
            timeoutMs: config.rpcTimeoutMs,
            ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
          },
          { nodeError: (method, { code, message }) => new SuiRpcError(method, code, message) },
        ),
    );
    this.pool = new EndpointPool<JsonRpcEndpoint>({
      chain: config.name,
      endpoints,
      readHead: (endpoint) => this.#head(endpoint),
      maxHeadLagBlocks: config.maxHeadLagBlocks,
      maxHeadAgeMs: config.maxHeadAgeMs ?? SUI_MAX_HEAD_AGE_MS,
      headRefreshMs: HEAD_REFRESH_MS,
      timeoutMs: config.rpcTimeoutMs,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...options.pool,
    });
  }

  /** The chain's clock, ms, from an endpoint whose head is current: timelocks and depths count from it. */
  async clockMs(): Promise<bigint> {
    const head = await this.pool.freshHead("sui_getObject(0x6)");
    if (head.timeMs === null) throw new RpcShapeError(this.chain, "sui_getObject(0x6)", "no clock time");
    return BigInt(head.timeMs);
  }

  /** The latest checkpoint's sequence number. */
  latestCheckpoint(): Promise<bigint> {
    return this.#call("sui_getLatestCheckpointSequenceNumber", [], u64Text);
  }

  referenceGasPrice(): Promise<bigint> {
    return this.#call("suix_getReferenceGasPrice", [], u64Text);
  }

  getObject(id: string): Promise<ObjectResponse> {
    return this.#call(
      "sui_getObject",
      [id, { showType: true, showOwner: true, showContent: true, showPreviousTransaction: true }],
      objectResponseSchema,
    );
  }

  /** A registry's field named by an order id (bytes). */
  getOrderField(registry: string, orderId: Uint8Array): Promise<ObjectResponse> {
    return this.#call(
      "suix_getDynamicFieldObject",
      [registry, { type: "vector<u8>", value: Array.from(orderId) }],
      objectResponseSchema,
    );
  }

  /** The transaction with its effects and events; null when the node does not know the digest. */
  async getTransaction(digest: string): Promise<TransactionResponse | null> {
    try {
      return await this.#call(
        "sui_getTransactionBlock",
        [digest, { showEffects: true, showEvents: true }],
        transactionResponseSchema,
      );
    } catch (error) {
      if (error instanceof SuiRpcError && /could not find/i.test(error.nodeMessage)) return null;
      throw error;
    }
  }

  coinsPage(owner: string, coinType: string, cursor: string | null): Promise<CoinPage> {
    return this.#call("suix_getCoins", [owner, coinType, cursor, COINS_PAGE], coinPageSchema);
  }

  async balance(owner: string, coinType: string): Promise<bigint> {
    return (await this.#call("suix_getBalance", [owner, coinType], balanceSchema)).totalBalance;
  }

  dryRun(txBytes: Uint8Array) {
    return this.#call("sui_dryRunTransactionBlock", [Buffer.from(txBytes).toString("base64")], dryRunSchema, {
      current: false,
    });
  }

  /** Submits through every endpoint; the node's answer when executed. */
  async execute(
    txBytes: Uint8Array,
    signature: string,
    isSent: (error: unknown) => boolean,
  ): Promise<TransactionResponse> {
    const params = [
      Buffer.from(txBytes).toString("base64"),
      [signature],
      { showEffects: true, showEvents: true },
      "WaitForLocalExecution",
    ];
    const raw = await this.pool.broadcast(
      "sui_executeTransactionBlock",
      (endpoint) => endpoint.request("sui_executeTransactionBlock", params),
      { preferAnswer: isSent },
    );
    return checkedAnswer(this.chain, "sui_executeTransactionBlock", raw, transactionResponseSchema);
  }

  async #head(endpoint: JsonRpcEndpoint): Promise<HeadReading> {
    const method = "sui_getLatestCheckpointSequenceNumber";
    const checkpoint = checkedAnswer(this.chain, method, await endpoint.request(method, []), u64Text);
    const clockAnswer = await endpoint.request("sui_getObject", [SUI_CLOCK.objectId, { showContent: true }]);
    const clock = clockMsOf(
      this.chain,
      checkedAnswer(this.chain, "sui_getObject(0x6)", clockAnswer, objectResponseSchema),
    );
    return { height: Number(checkpoint), timeMs: Number(clock) };
  }

  async #call<T extends z.ZodType>(
    method: string,
    params: unknown,
    schema: T,
    options = { current: true },
  ): Promise<z.output<T>> {
    const raw = await this.pool.read(method, (endpoint) => endpoint.request(method, params), options);
    return checkedAnswer(this.chain, method, raw, schema);
  }
}
