/**
 * Lookup of the configured chains, assets and solvers by the identifiers the API uses
 * (`<chain>:<symbol>` for assets, lowercase hex without 0x for solver ids).
 */
import { familyOfChain } from "../families/registry.js";
import type { LocalAssetConfigOf, LocalChainOf, LocalFamilyName } from "../families/local-family.js";
import type { LocalServiceChainConfig, LocalServiceSolverConfig } from "./config.js";

interface ResolvedBase {
  /** `<chain>:<symbol>`. */
  id: string;
  /** True for the chain's own coin (EVM: NativeHTLC, no token contract; Bitcoin: always; Solana: SOL). */
  native: boolean;
}

/** An asset with its chain, typed by the chain's family. */
export type ResolvedAsset = {
  [F in LocalFamilyName]: ResolvedBase & { family: F; chain: LocalChainOf<F>; config: LocalAssetConfigOf<F> };
}[LocalFamilyName];

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
  const family = familyOfChain(chain);
  const assets: readonly LocalServiceChainConfig["assets"][number][] = chain.assets;
  return assets.map(
    (config) =>
      ({
        family: chain.family,
        id: `${chain.name}:${config.symbol}`,
        chain,
        config,
        native: family.isNative(config),
      }) as ResolvedAsset,
  );
}

export function normalizeSolverId(id: string): string {
  return id.toLowerCase().replace(/^0x/, "");
}
