/** The solver's public identity on each configured chain, from the configured keys; never a key. */
import { familyOf, type ChainConfig, type ChainFamily } from "../chains/registry.js";
import type { SolverConfig } from "../config/types.js";

export interface ChainAccount {
  chain: string;
  family: ChainFamily;
  /** Labelled public identities: `address` (EVM, Bitcoin), `xOnlyKey` (Bitcoin), `publicKey` (Solana). */
  account: Record<string, string>;
}

export function chainAccount(config: SolverConfig, chain: ChainConfig): ChainAccount {
  const family = familyOf(chain.family);
  const key = config.solver.keys[chain.family];
  if (key === "") throw new Error(`no ${chain.family} key is configured for chain ${chain.name}`);
  return { chain: chain.name, family: chain.family, account: family.publicAccount(key, chain) };
}

export function solverAccounts(config: SolverConfig): ChainAccount[] {
  return config.chains.map((chain) => chainAccount(config, chain));
}
