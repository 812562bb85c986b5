import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { BitcoinRegtestNode, type RegtestNodeOptions } from "./node.js";
import { createRpcServer, generateCredentials } from "./rpc-server.js";
import { listen } from "htlc-solver/util/listen.js";

export { BitcoinRegtestNode } from "./node.js";
export type { RegtestNodeOptions, SendOptions, CoinInfo } from "./node.js";
export { REGTEST, blockSubsidy } from "./params.js";

export interface StartBitcoinRegtestOptions {
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** estimatesmartfee's answer in sat/vB (default 2). */
  feeRateSatVb?: number | bigint;
  /** bitcoind's -blockmintxfee in sat/vB (default 1): cheaper packages stay in the mempool. */
  blockMinFeeRateSatVb?: number | bigint;
  logger?: Logger;
}

/** A regtest node as its clients see it: where its JSON-RPC listens, and how to stop it. */
export interface RegtestEndpoint {
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  stop(): Promise<void>;
}

export interface BitcoinRegtest extends RegtestEndpoint {
  node: BitcoinRegtestNode;
}

function toBigInt(value: number | bigint | undefined, name: string): bigint | undefined {
  if (value === undefined || typeof value === "bigint") return value;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number of sat/vB, got ${value}`);
  return BigInt(value);
}

/** Starts the in-process regtest node and its JSON-RPC server (basic auth, generated credentials). */
export async function startBitcoinRegtest(options: StartBitcoinRegtestOptions = {}): Promise<BitcoinRegtest> {
  const nodeOptions: RegtestNodeOptions = {
    feeRateSatVb: toBigInt(options.feeRateSatVb, "feeRateSatVb"),
    blockMinFeeRateSatVb: toBigInt(options.blockMinFeeRateSatVb, "blockMinFeeRateSatVb"),
  };
  const node = new BitcoinRegtestNode(nodeOptions);
  const credentials = generateCredentials();
  const server = createRpcServer(node, credentials, options.logger);
  await listen(server, options.port ?? 0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    rpcUser: credentials.user,
    rpcPassword: credentials.password,
    node,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
