/**
 * The Starknet JSON-RPC methods the solver uses (spec v0.9), over every configured endpoint as one (see
 * src/chains/rpc/endpoint-pool.ts): reads go to a current endpoint with failover, transactions through
 * every endpoint. Every answer is checked against its shape before use. The SDK's provider is not used:
 * it speaks to one URL and cannot be told which answers need a current node.
 */
import type { Logger } from "pino";
import type { z } from "zod";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { EndpointPool, headRefreshFor, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import { maxHeadAgeOf, type HeadReading } from "../rpc/head-age.js";
import { checkedAnswer, RpcShapeError } from "../rpc/rpc-shape-error.js";
import { StarknetRpcError } from "./errors.js";
import { feltHex } from "./felt.js";
import { chainIdFelt } from "./order-id.js";
import { StarknetRpcEndpoint } from "./rpc-endpoint.js";
import {
  addInvokeSchema,
  blockNumberSchema,
  blockSchema,
  eventsPageSchema,
  feeEstimateSchema,
  feltList,
  felt,
  receiptSchema,
  txStatusSchema,
  type EventsPage,
  type FeeEstimate,
  type Receipt,
  type StarknetBlock,
  type TxStatusAnswer,
} from "./rpc-schemas.js";
import type { StarknetChainConfig } from "./config.js";

export type BlockId = "latest" | "pre_confirmed" | { block_number: number };

/** A signed v3 invoke as the node takes it (BROADCASTED_INVOKE_TXN). */
export interface InvokeV3 {
  type: "INVOKE";
  version: "0x3";
  sender_address: string;
  calldata: string[];
  signature: string[];
  nonce: string;
  resource_bounds: Record<
    "l1_gas" | "l2_gas" | "l1_data_gas",
    { max_amount: string; max_price_per_unit: string }
  >;
  tip: string;
  paymaster_data: string[];
  account_deployment_data: string[];
  nonce_data_availability_mode: "L1";
  fee_data_availability_mode: "L1";
}

export interface EventFilter {
  fromBlock: number;
  toBlock: BlockId;
  address: string;
  keys: string[][];
  chunkSize: number;
  continuationToken?: string;
}

export interface StarknetRpcOptions {
  logger?: Logger;
  pool?: Partial<EndpointPoolOptions<StarknetRpcEndpoint>>;
  fetchImpl?: typeof fetch;
}

export type StarknetRpcConfig = Pick<
  StarknetChainConfig,
  | "name"
  | "chainId"
  | "rpcUrls"
  | "rpcTimeoutMs"
  | "maxHeadLagBlocks"
  | "minBlockTimeMs"
  | "maxBlockTimeMs"
  | "maxHeadAgeMs"
>;

/** The latest block as a head: its number and its timestamp. */
async function latestHead(endpoint: StarknetRpcEndpoint): Promise<HeadReading> {
  const block = blockSchema.parse(await endpoint.request("starknet_getBlockWithTxHashes", ["latest"]));
  return { height: block.block_number, timeMs: block.timestamp * 1000 };
}

export class StarknetRpc {
  readonly chain: string;
  readonly pool: EndpointPool<StarknetRpcEndpoint>;

  constructor(config: StarknetRpcConfig, options: StarknetRpcOptions = {}) {
    if (config.rpcUrls.length === 0)
      throw new Error(`Starknet chain ${config.name} has no rpcUrls configured`);
    this.chain = config.name;
    const labels = endpointLabels(config.rpcUrls);
    const chainFelt = chainIdFelt(config.chainId);
    const endpoints = config.rpcUrls.map(
      (url, i) =>
        new StarknetRpcEndpoint({
          url,
          label: labels[i] ?? url,
          timeoutMs: config.rpcTimeoutMs,
          chainIdFelt: chainFelt,
          chainId: config.chainId,
          ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
        }),
    );
    this.pool = new EndpointPool<StarknetRpcEndpoint>({
      chain: config.name,
      endpoints,
      readHead: latestHead,
      maxHeadLagBlocks: config.maxHeadLagBlocks,
      maxHeadAgeMs: maxHeadAgeOf(config),
      headRefreshMs: headRefreshFor(config.minBlockTimeMs),
      timeoutMs: config.rpcTimeoutMs,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...options.pool,
    });
  }

  sticky<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return this.pool.sticky(what, fn);
  }

  /** The latest block number of an endpoint whose head is not stale: confirmations and timelocks count from it. */
  async freshBlockNumber(): Promise<bigint> {
    return BigInt((await this.pool.freshHead("starknet_getBlockWithTxHashes")).height);
  }

  blockNumber(): Promise<number> {
    return this.#call("starknet_blockNumber", [], blockNumberSchema);
  }

  getBlock(block: BlockId): Promise<StarknetBlock> {
    return this.#call("starknet_getBlockWithTxHashes", [block], blockSchema);
  }

  async getNonce(address: string, block: BlockId = "pre_confirmed"): Promise<bigint> {
    return this.#call("starknet_getNonce", [block, address], felt);
  }

  /** A view call's result felts. */
  call(contract: string, selector: string, calldata: readonly bigint[], block: BlockId = "latest") {
    const request = {
      contract_address: contract,
      entry_point_selector: selector,
      calldata: calldata.map(feltHex),
    };
    return this.#call("starknet_call", [request, block], feltList);
  }

  async estimateFee(invoke: InvokeV3): Promise<FeeEstimate> {
    const [estimate] = await this.#call(
      "starknet_estimateFee",
      [[invoke], ["SKIP_VALIDATE"], "pre_confirmed"],
      feeEstimateSchema,
      { current: false },
    );
    if (estimate === undefined) throw new RpcShapeError(this.chain, "starknet_estimateFee", "no estimate");
    return estimate;
  }

  /** Sends through every endpoint; returns the hash the node states. Duplicates count as sent (the caller decides). */
  async addInvoke(invoke: InvokeV3, isSent: (error: unknown) => boolean): Promise<bigint | null> {
    const answer = await this.pool
      .broadcast(
        "starknet_addInvokeTransaction",
        (endpoint) => endpoint.request("starknet_addInvokeTransaction", { invoke_transaction: invoke }),
        { preferAnswer: isSent },
      )
      .catch((error: unknown) => {
        if (isSent(error)) return null;
        throw error;
      });
    if (answer === null) return null;
    const parsed = addInvokeSchema.safeParse(answer);
    if (!parsed.success)
      throw new RpcShapeError(this.chain, "starknet_addInvokeTransaction", parsed.error.message);
    return parsed.data.transaction_hash;
  }

  /** The transaction's status; null when the node does not know the hash. */
  async txStatus(txHash: string): Promise<TxStatusAnswer | null> {
    return this.#orNotFound(() => this.#call("starknet_getTransactionStatus", [txHash], txStatusSchema));
  }

  /** The receipt; null when the node does not know the hash. */
  async receipt(txHash: string): Promise<Receipt | null> {
    return this.#orNotFound(() => this.#call("starknet_getTransactionReceipt", [txHash], receiptSchema));
  }

  /** One page of events. */
  getEvents(filter: EventFilter): Promise<EventsPage> {
    const request = {
      filter: {
        from_block: { block_number: filter.fromBlock },
        to_block: filter.toBlock,
        address: filter.address,
        keys: filter.keys,
        chunk_size: filter.chunkSize,
        ...(filter.continuationToken === undefined ? {} : { continuation_token: filter.continuationToken }),
      },
    };
    return this.#call("starknet_getEvents", request, eventsPageSchema);
  }

  async #orNotFound<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof StarknetRpcError && error.code === 29) return null;
      throw error;
    }
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
