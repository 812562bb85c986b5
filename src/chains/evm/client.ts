import { createPublicClient, defineChain, type Chain, type PublicClient } from "viem";
import type { Logger } from "pino";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { EndpointPool, headRefreshFor, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import { maxHeadAgeOf, type HeadReading } from "../rpc/head-age.js";
import { blockHead, EvmPoolRouter, poolTransport } from "./pool-transport.js";
import { EvmRpcEndpoint } from "./rpc-endpoint.js";
import type { EvmChainConfig } from "./config.js";

/** A viem chain description, so clients and signatures agree on the chain id. */
export function evmChain(chainId: number, name: string, rpcUrls: string[]): Chain {
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: rpcUrls } },
  });
}

export function evmChainDefinition(config: EvmChainConfig): Chain {
  // Named by label: nothing that reads the chain definition needs the keys in the URLs.
  return evmChain(config.chainId, config.name, endpointLabels(config.rpcUrls));
}

export interface EvmRpcOptions {
  logger?: Logger;
  /** Pool settings beyond what the chain config says (tests shorten waits with these). */
  pool?: Partial<EndpointPoolOptions<EvmRpcEndpoint>>;
  fetchImpl?: typeof fetch;
}

export interface EvmRpc {
  client: PublicClient;
  pool: EndpointPool<EvmRpcEndpoint>;
}

const poolsOfClients = new WeakMap<PublicClient, EndpointPool<EvmRpcEndpoint>>();

/**
 * A public client over every configured RPC URL, through an endpoint pool (see endpoint-pool.ts).
 * viem's `fallback` transport is not used: it tries transports in ranked order but ranks them only by
 * latency and stability of a ping, never by head height, so a node stuck at an old block keeps
 * answering; it sends a transaction to the first node that takes it, so one that drops sends loses it;
 * and it keeps no cool-down across requests when a node rate-limits us.
 */
export function createEvmRpc(config: EvmChainConfig, options: EvmRpcOptions = {}): EvmRpc {
  if (config.rpcUrls.length === 0) throw new Error(`EVM chain ${config.name} has no rpcUrls configured`);
  const labels = endpointLabels(config.rpcUrls);
  const endpoints = config.rpcUrls.map(
    (url, i) =>
      new EvmRpcEndpoint({
        url,
        label: labels[i] ?? url,
        timeoutMs: config.rpcTimeoutMs,
        ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
      }),
  );
  const pool = new EndpointPool<EvmRpcEndpoint>({
    chain: config.name,
    endpoints,
    readHead: (e) => latestHead(e),
    maxHeadLagBlocks: config.maxHeadLagBlocks,
    maxHeadAgeMs: maxHeadAgeOf(config),
    headRefreshMs: headRefreshFor(config.minBlockTimeMs),
    timeoutMs: config.rpcTimeoutMs,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...options.pool,
  });
  const client = createPublicClient({
    chain: evmChainDefinition(config),
    transport: poolTransport(new EvmPoolRouter(pool)),
    pollingInterval: 1_000,
  });
  poolsOfClients.set(client, pool);
  return { client, pool };
}

/** The endpoint's latest block: its number and timestamp. */
async function latestHead(endpoint: EvmRpcEndpoint): Promise<HeadReading> {
  const block = await endpoint.request("eth_getBlockByNumber", ["latest", false]);
  const head = blockHead(block);
  if (head === null) throw new Error(`${endpoint.label}: the latest block has no number`);
  return head;
}

export function createEvmPublicClient(config: EvmChainConfig, options: EvmRpcOptions = {}): PublicClient {
  return createEvmRpc(config, options).client;
}

/** The endpoint pool behind a client made here; null for any other client. */
export function rpcPoolOf(client: PublicClient): EndpointPool<EvmRpcEndpoint> | null {
  return poolsOfClients.get(client) ?? null;
}

/**
 * Runs `fn` with every read of `client` on one endpoint, for reads that must agree (a range of logs and
 * the tip they end at). Other clients run `fn` as it is.
 */
export function withOneEndpoint<T>(client: PublicClient, what: string, fn: () => Promise<T>): Promise<T> {
  const pool = rpcPoolOf(client);
  return pool === null ? fn() : pool.sticky(what, fn);
}

/** Hex of the API and of HtlcParams carries no 0x; viem wants it. */
export function with0x(hex: string): `0x${string}` {
  return (hex.startsWith("0x") ? hex : `0x${hex}`) as `0x${string}`;
}

export function strip0x(hex: string): string {
  return hex.startsWith("0x") ? hex.slice(2) : hex;
}
