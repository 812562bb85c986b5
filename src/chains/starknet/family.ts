/** Wires the Starknet family from config: one RPC pool, reader and executor, and the solver's account. */
import type { Logger } from "pino";
import type { ChainHandles, JournalView } from "../chain.js";
import type { FollowPositions } from "../follow-positions.js";
import { StarknetExecutor } from "./executor.js";
import { readStarkKey } from "./key.js";
import { StarknetReader } from "./reader.js";
import { StarknetRpc, type StarknetRpcOptions } from "./rpc.js";
import type { StarknetChainConfig } from "./config.js";

export interface StarknetFamily extends ChainHandles {
  reader: StarknetReader;
  executor: StarknetExecutor;
  rpc: StarknetRpc;
  /** The solver's account address: its party on this chain. */
  party: string;
}

export interface StarknetFamilyOptions {
  config: StarknetChainConfig;
  /** The account's Stark private key (config `solver.keys.starknet`). */
  key: string;
  journal: JournalView;
  /** Where spend searches resume after a restart (the journal's). */
  positions: FollowPositions;
  logger?: Logger;
  rpc?: StarknetRpcOptions;
  reader?: { pagesPerRead?: number };
}

/** Reader and executor of one chain; built from a URL list alone, so they can be pointed at any node. */
export function createStarknetFamily(options: StarknetFamilyOptions): StarknetFamily {
  const { config, journal, logger } = options;
  const reading = readStarkKey(options.key);
  if ("problem" in reading) throw new Error(`the Starknet key of ${config.name} ${reading.problem}`);
  const rpc = new StarknetRpc(config, { ...options.rpc, ...(logger === undefined ? {} : { logger }) });
  const reader = new StarknetReader(config, rpc, {
    positions: options.positions,
    solver: config.accountAddress,
    ...options.reader,
  });
  const executor = new StarknetExecutor({
    config,
    key: reading.key,
    rpc,
    reader,
    journal,
    ...(logger === undefined ? {} : { logger }),
  });
  return { reader, executor, rpc, party: config.accountAddress };
}
