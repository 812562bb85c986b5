/**
 * Per-chain environment variables, for endpoints that carry credentials (RPC URLs with API keys, node
 * passwords) and so belong in the environment rather than a profile file:
 *   SOLVER_CHAIN_<NAME>_RPC_URLS (comma-separated; every family), and for bitcoin also SOLVER_CHAIN_<NAME>_RPC_URL,
 *   SOLVER_CHAIN_<NAME>_RPC_USER, SOLVER_CHAIN_<NAME>_RPC_PASSWORD, SOLVER_CHAIN_<NAME>_ESPLORA_URLS
 *   (comma-separated) and SOLVER_CHAIN_<NAME>_ESPLORA_URL,
 * where <NAME> is the chain name upper-cased, e.g. SOLVER_CHAIN_ETHEREUM_SEPOLIA_RPC_URLS.
 * A URL variable replaces the file's URLs in either form (one URL or a list).
 */
import { ALTERNATIVE_FORMS } from "./merge.js";
import { isRawObject, type RawObject } from "./validate/fields.js";

export function chainEnvPrefix(chainName: string): string {
  return `SOLVER_CHAIN_${chainName.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;
}

/** EVM and Solana chains take their endpoints as one list. */
const RPC_LIST_VARS = { RPC_URLS: "rpcUrls" } as const;
const BITCOIN_VARS = {
  RPC_URLS: "rpcUrls",
  RPC_URL: "rpcUrl",
  RPC_USER: "rpcUser",
  RPC_PASSWORD: "rpcPassword",
  ESPLORA_URLS: "esploraUrls",
  ESPLORA_URL: "esploraUrl",
} as const;
const LIST_KEYS = new Set(["rpcUrls", "esploraUrls"]);

function applyToChain(chain: RawObject, env: NodeJS.ProcessEnv): RawObject {
  if (typeof chain.name !== "string") return chain;
  const prefix = chainEnvPrefix(chain.name);
  const vars: Record<string, string> =
    chain.family === "evm" || chain.family === "solana"
      ? RPC_LIST_VARS
      : chain.family === "bitcoin"
        ? BITCOIN_VARS
        : {};
  const result = { ...chain };
  for (const [suffix, key] of Object.entries(vars)) {
    const value = env[prefix + suffix];
    if (value === undefined || value === "") continue;
    // A variable replaces the file's URLs in either form.
    const other = ALTERNATIVE_FORMS[key];
    if (other !== undefined && chain.family === "bitcoin") delete result[other];
    result[key] = LIST_KEYS.has(key)
      ? value
          .split(",")
          .map((u) => u.trim())
          .filter((u) => u !== "")
      : value;
  }
  return result;
}

/** The chains list with per-chain environment values applied over the file's. */
export function applyChainEnv(chains: unknown, env: NodeJS.ProcessEnv): unknown {
  if (!Array.isArray(chains)) return chains;
  return chains.map((chain) => (isRawObject(chain) ? applyToChain(chain, env) : chain));
}
