/**
 * Lookup of the configured chains, assets and solvers by the identifiers the API uses
 * (`<chain>:<symbol>` for assets, lowercase hex without 0x for solver ids).
 */
import { NATIVE_TOKEN_ADDRESS } from "htlc-solver/chains/evm/htlc-abi.js";
import type {
  LocalServiceAssetConfig,
  LocalServiceBitcoinAssetConfig,
  LocalServiceBitcoinChainConfig,
  LocalServiceChainConfig,
  LocalServiceEvmChainConfig,
  LocalServiceSolanaAssetConfig,
  LocalServiceSolanaChainConfig,
  LocalServiceSolverConfig,
} from "./config.js";

interface ResolvedBase {
  /** `<chain>:<symbol>`. */
  id: string;
  /** True for the chain's own coin (EVM: NativeHTLC, no token contract; Bitcoin: always; Solana: SOL). */
  native: boolean;
}

export type ResolvedAsset =
  | (ResolvedBase & { family: "evm"; chain: LocalServiceEvmChainConfig; config: LocalServiceAssetConfig })
  | (ResolvedBase & {
      family: "bitcoin";
      chain: LocalServiceBitcoinChainConfig;
      config: LocalServiceBitcoinAssetConfig;
    })
  | (ResolvedBase & {
      family: "solana";
      chain: LocalServiceSolanaChainConfig;
      config: LocalServiceSolanaAssetConfig;
    });

export class Registry {
  private readonly assets = new Map<string, ResolvedAsset>();
  private readonly chains = new Map<string, LocalServiceChainConfig>();
  private readonly solvers = new Map<string, LocalServiceSolverConfig>();

  constructor(chains: LocalServiceChainConfig[], solvers: LocalServiceSolverConfig[]) {
    for (const chain of chains) {
      this.chains.set(chain.name, chain);
      for (const asset of resolveAssets(chain)) this.assets.set(asset.id, asset);
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

function resolveAssets(chain: LocalServiceChainConfig): ResolvedAsset[] {
  const id = (symbol: string): string => `${chain.name}:${symbol}`;
  if (chain.family === "bitcoin") {
    return chain.assets.map((config) => ({
      family: "bitcoin",
      id: id(config.symbol),
      chain,
      config,
      native: true,
    }));
  }
  if (chain.family === "solana") {
    return chain.assets.map((config) => ({
      family: "solana",
      id: id(config.symbol),
      chain,
      config,
      native: config.tokenAddress === "native",
    }));
  }
  return chain.assets.map((config) => ({
    family: "evm",
    id: id(config.symbol),
    chain,
    config,
    native: isNativeToken(config.tokenAddress),
  }));
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
  switch (chain.family) {
    case "evm":
      return solver.addresses.evm;
    case "bitcoin":
      return solver.addresses.bitcoin;
    case "solana":
      return solver.addresses.solana;
  }
}
