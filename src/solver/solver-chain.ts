import type { ChainExecutor, ChainReader } from "../chains/chain.js";
import type { ChainConfig } from "../chains/registry.js";

/** Everything the runner needs of one configured chain. */
export interface SolverChain {
  config: ChainConfig;
  reader: ChainReader;
  executor: ChainExecutor;
  /** The solver's address (EVM) or x-only key (Bitcoin) on this chain. */
  party: string;
}

export type ChainRegistry = ReadonlyMap<string, SolverChain>;
