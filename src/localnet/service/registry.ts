/**
 * Lookup of the configured chains, assets and solvers by the identifiers the API uses
 * (`<chain>:<symbol>` for assets, lowercase hex without 0x for solver ids).
 */
import { NATIVE_TOKEN_ADDRESS } from "../../chains/evm/htlc-abi.js";
import type { LocalServiceAssetConfig, LocalServiceChainConfig, LocalServiceSolverConfig } from "./config.js";

export interface ResolvedAsset {
  /** `<chain>:<symbol>`. */
  id: string;
  chain: LocalServiceChainConfig;
  config: LocalServiceAssetConfig;
  /** True for the chain's own coin (EVM: NativeHTLC, no token contract). */
  native: boolean;
}

export class Registry {
  private readonly assets = new Map<string, ResolvedAsset>();
  private readonly chains = new Map<string, LocalServiceChainConfig>();
  private readonly solvers = new Map<string, LocalServiceSolverConfig>();

  constructor(chains: LocalServiceChainConfig[], solvers: LocalServiceSolverConfig[]) {
    for (const chain of chains) {
      this.chains.set(chain.name, chain);
      for (const config of chain.assets) {
        const id = `${chain.name}:${config.symbol}`;
        this.assets.set(id, { id, chain, config, native: isNativeToken(config.tokenAddress) });
      }
    }
    for (const solver of solvers) this.solvers.set(normalizeSolverId(solver.id), solver);
  }

  asset(id: string): ResolvedAsset | undefined {
    return this.assets.get(id);
  }

  allAssets(): ResolvedAsset[] {
    return [...this.assets.values()];
  }

  chain(name: string): LocalServiceChainConfig | undefined {
    return this.chains.get(name);
  }

  allChains(): LocalServiceChainConfig[] {
    return [...this.chains.values()];
  }

  solver(id: string): LocalServiceSolverConfig | undefined {
    return this.solvers.get(normalizeSolverId(id));
  }

  allSolvers(): LocalServiceSolverConfig[] {
    return [...this.solvers.values()];
  }
}

export function normalizeSolverId(id: string): string {
  return id.toLowerCase().replace(/^0x/, "");
}

export function isNativeToken(tokenAddress: string): boolean {
  return tokenAddress === "native" || tokenAddress.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase();
}

/** The solver's address on the family of this chain, or undefined when it has none there. */
export function solverAddressOn(
  solver: LocalServiceSolverConfig,
  chain: LocalServiceChainConfig,
): string | undefined {
  return chain.family === "evm" ? solver.addresses.evm : solver.addresses.bitcoin;
}
