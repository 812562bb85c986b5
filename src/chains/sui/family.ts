/** Wires the Sui family from config: one RPC pool, reader and executor, and the solver's address. */
import type { Logger } from "pino";
import type { ChainHandles, JournalView } from "../chain.js";
import { SuiExecutor } from "./executor.js";
import { suiKeypair } from "./key.js";
import { SuiReader } from "./reader.js";
import { SuiRpc, type SuiRpcOptions } from "./rpc.js";
import type { SuiChainConfig } from "./config.js";

export interface SuiFamily extends ChainHandles {
  reader: SuiReader;
  executor: SuiExecutor;
  rpc: SuiRpc;
  /** The solver's address: its party on this chain. */
  party: string;
}

export interface SuiFamilyOptions {
  config: SuiChainConfig;
  /** The solver's key, stored form (config `solver.keys.sui`). */
  key: string;
  journal: JournalView;
  logger?: Logger;
  rpc?: SuiRpcOptions;
  now?: () => number;
}

/** Reader and executor of one chain; built from a URL list alone, so they can be pointed at any node. */
export function createSuiFamily(options: SuiFamilyOptions): SuiFamily {
  const { config, journal, logger } = options;
  const keypair = suiKeypair(options.key);
  const address = keypair.toSuiAddress();
  if (config.solverAddress !== "" && config.solverAddress !== address)
    throw new Error(
      `${config.name}: solverAddress ${config.solverAddress} is not the Sui key's address ${address}`,
    );
  const rpc = new SuiRpc(config, { ...options.rpc, ...(logger === undefined ? {} : { logger }) });
  const reader = new SuiReader(config, rpc);
  const executor = new SuiExecutor({
    config,
    keypair,
    rpc,
    reader,
    journal,
    ...(logger === undefined ? {} : { logger }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { reader, executor, rpc, party: address };
}
