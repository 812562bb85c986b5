/** Wires the Solana family from config: one RPC pool, reader and executor, and the solver's key. */
import type { Logger } from "pino";
import type { ChainHandles, JournalView } from "../chain.js";
import type { FollowPositions } from "../follow-positions.js";
import { maxHeadAgeOf } from "../rpc/head-age.js";
import { SolanaExecutor } from "./executor.js";
import { readSolanaSecretKey } from "./keypair.js";
import { SolanaReader } from "./reader.js";
import { SolanaRpc, type SolanaRpcOptions } from "./rpc.js";
import type { SolanaChainConfig } from "./config.js";

export interface SolanaFamily extends ChainHandles {
  reader: SolanaReader;
  executor: SolanaExecutor;
  rpc: SolanaRpc;
  /** The solver's address (base58): its party on this chain. */
  party: string;
}

export interface SolanaFamilyOptions {
  config: SolanaChainConfig;
  /** The 64-byte secret key, base58 (config `solver.keys.solana`). */
  secretKey: string;
  journal: JournalView;
  /** Where following the solver's closed fills resumes after a restart (the journal's). */
  positions: FollowPositions;
  logger?: Logger;
  rpc?: SolanaRpcOptions;
  /** Bounds of the work one read may do following a fill (SolanaReaderOptions). */
  reader?: { pagesPerRead?: number; fetchesPerRead?: number };
}

export function createSolanaFamily(options: SolanaFamilyOptions): SolanaFamily {
  const { config, journal, logger } = options;
  const reading = readSolanaSecretKey(options.secretKey);
  if ("problem" in reading) throw new Error(`the Solana key of ${config.name} ${reading.problem}`);
  const rpc = new SolanaRpc(config, {
    ...options.rpc,
    pool: { maxHeadAgeMs: maxHeadAgeOf(config), ...options.rpc?.pool },
    ...(logger === undefined ? {} : { logger }),
  });
  const reader = new SolanaReader(config, rpc, {
    solver: reading.keypair.publicKey,
    positions: options.positions,
    ...options.reader,
  });
  const executor = new SolanaExecutor({
    config,
    keypair: reading.keypair,
    rpc,
    reader,
    journal,
    ...(logger === undefined ? {} : { logger }),
  });
  return { reader, executor, rpc, party: reading.keypair.publicKey.toBase58() };
}
