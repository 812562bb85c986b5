/**
 * Per-chain environment variables, for endpoints that carry credentials (RPC URLs with API keys, node
 * passwords) and so belong in the environment rather than a profile file: `SOLVER_CHAIN_<NAME>_<suffix>`,
 * where <NAME> is the chain name upper-cased (e.g. SOLVER_CHAIN_ETHEREUM_SEPOLIA_RPC_URLS) and the
 * suffixes are the chain family's (`endpointVariables`; `RPC_URLS`, comma-separated, on every family).
 * A URL variable replaces the file's URLs in either form (one URL or a list).
 */
import type { ChainConfigSpec } from "./chain-spec.js";
import { isRawObject, type RawObject } from "./raw.js";

export function chainEnvPrefix(chainName: string): string {
  return `SOLVER_CHAIN_${chainName.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;
}

function applyToChain(
  chain: RawObject,
  env: NodeJS.ProcessEnv,
  families: readonly ChainConfigSpec[],
): RawObject {
  if (typeof chain.name !== "string") return chain;
  const prefix = chainEnvPrefix(chain.name);
  const variables = families.find((family) => family.name === chain.family)?.endpointVariables ?? [];
  const result = { ...chain };
  for (const variable of variables) {
    const value = env[prefix + variable.suffix];
    if (value === undefined || value === "") continue;
    if (variable.replaces !== undefined) delete result[variable.replaces];
    result[variable.key] = variable.list
      ? value
          .split(",")
          .map((u) => u.trim())
          .filter((u) => u !== "")
      : value;
  }
  return result;
}

/** The chains list with per-chain environment values applied over the file's. */
export function applyChainEnv(
  chains: unknown,
  env: NodeJS.ProcessEnv,
  families: readonly ChainConfigSpec[],
): unknown {
  if (!Array.isArray(chains)) return chains;
  return chains.map((chain) => (isRawObject(chain) ? applyToChain(chain, env, families) : chain));
}
