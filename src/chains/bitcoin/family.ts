/** Wires the Bitcoin family from config: backend (bitcoind or Esplora), reader, wallet and executor. */
import type { Logger } from "pino";
import type { ChainHandles, JournalView } from "../chain.js";
import type { BitcoinBackend } from "./backend.js";
import { BitcoindBackend } from "./bitcoind-backend.js";
import { EsploraBackend } from "./esplora-backend.js";
import { BitcoinExecutor } from "./executor.js";
import { BitcoinKey } from "./keys.js";
import { bitcoinNetwork } from "./network.js";
import type { BitcoinReader } from "./reader.js";
import { BitcoinRpcClient } from "./rpc.js";
import { headRefreshFor } from "../rpc/endpoint-pool.js";
import { maxHeadAgeOf } from "../rpc/head-age.js";
import { bitcoinMaxHeadAgeMs } from "./config.js";
import type { BitcoinWallet } from "./wallet.js";
import type { BitcoinChainConfig } from "./config.js";

export interface BitcoinFamily extends ChainHandles {
  reader: BitcoinReader;
  executor: BitcoinExecutor;
  wallet: BitcoinWallet;
  backend: BitcoinBackend;
  /** The solver's x-only key, hex: its party on this chain. */
  party: string;
}

export interface BitcoinFamilyOptions {
  config: BitcoinChainConfig;
  /** 32-byte private key hex (config `solver.keys.bitcoin`). */
  privateKeyHex: string;
  journal: JournalView;
  /** How far back a newly watched HTLC address is searched (bitcoind backend); default 1008 blocks. */
  lookbackBlocks?: number;
  logger?: Logger;
}

export function createBitcoinBackend(
  config: BitcoinChainConfig,
  options: { lookbackBlocks?: number; logger?: Logger } = {},
): BitcoinBackend {
  const pooling = {
    chain: config.name,
    maxHeadLagBlocks: config.maxHeadLagBlocks,
    maxHeadAgeMs: maxHeadAgeOf(config, bitcoinMaxHeadAgeMs),
    headRefreshMs: headRefreshFor(config.minBlockTimeMs),
    timeoutMs: config.rpcTimeoutMs,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
  if (config.backend === "esplora") return new EsploraBackend({ urls: config.esploraUrls, ...pooling });
  const rpc = new BitcoinRpcClient({
    urls: config.rpcUrls,
    user: config.rpcUser,
    password: config.rpcPassword,
    ...pooling,
  });
  return new BitcoindBackend({ rpc, network: bitcoinNetwork(config.network), ...options });
}

export function createBitcoinFamily(options: BitcoinFamilyOptions): BitcoinFamily {
  const { config, journal, logger } = options;
  const key = BitcoinKey.fromHex(options.privateKeyHex);
  const backend = createBitcoinBackend(config, {
    ...(options.lookbackBlocks === undefined ? {} : { lookbackBlocks: options.lookbackBlocks }),
    ...(logger === undefined ? {} : { logger }),
  });
  const executor = new BitcoinExecutor({
    config,
    key,
    backend,
    journal,
    ...(logger === undefined ? {} : { logger }),
  });
  return {
    reader: executor.reader,
    executor,
    wallet: executor.wallet,
    backend,
    party: key.xOnlyHex,
  };
}
