import type { Logger } from "pino";
import type { Hex } from "viem";
import type { ChainHandles, JournalView } from "../chain.js";
import { Multicall3Check } from "./batch/multicall3-code.js";
import { createEvmPublicClient } from "./client.js";
import { EvmExecutor } from "./executor.js";
import { EvmReader } from "./reader.js";
import type { EvmChainConfig } from "./config.js";

export interface EvmFamily extends ChainHandles {
  reader: EvmReader;
  executor: EvmExecutor;
}

/** Reader and executor of one EVM chain over one shared RPC client and one check of its Multicall3. */
export function createEvmFamily(options: {
  config: EvmChainConfig;
  privateKey: Hex;
  journal: JournalView;
  logger?: Logger;
}): EvmFamily {
  const publicClient = createEvmPublicClient(
    options.config,
    options.logger ? { logger: options.logger } : {},
  );
  const multicall3 = new Multicall3Check(
    publicClient,
    options.config.name,
    options.logger?.child({ chain: options.config.name, family: "evm" }),
  );
  return {
    reader: new EvmReader(options.config, publicClient, multicall3),
    executor: new EvmExecutor({ ...options, publicClient, multicall3 }),
  };
}
