/** viem clients of one EVM chain: a reader, and the relayer's wallet with one send at a time. */
import PQueue from "p-queue";
import {
  createPublicClient,
  createWalletClient,
  http,
  type Account,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalServiceEvmChainConfig } from "./evm-config.js";

export interface EvmClients {
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
  /** Sends of the relayer on this chain run one after another so that nonces never collide. */
  sendQueue: PQueue;
}

export function createEvmClients(config: LocalServiceEvmChainConfig, relayerPrivateKey: Hex): EvmClients {
  const chain = evmChain(config.chainId, config.name, [config.rpcUrl]);
  // The watch reads every open order's HTLC side by side: reads made within a few milliseconds of each
  // other go out as one JSON-RPC batch, not one HTTP request each.
  const transport = http(config.rpcUrl, {
    timeout: 10_000,
    retryCount: 1,
    batch: { batchSize: 100, wait: 5 },
  });
  return {
    // No cache: viem otherwise serves a block number up to 4 s old, and confirmations would lag.
    publicClient: createPublicClient({ chain, transport, cacheTime: 0 }),
    walletClient: createWalletClient({ account: privateKeyToAccount(relayerPrivateKey), chain, transport }),
    sendQueue: new PQueue({ concurrency: 1 }),
  };
}
