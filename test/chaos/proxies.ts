/**
 * A fault-injecting proxy before every chain's node, and the solver's config that reaches the nodes
 * only through them.
 */
import type { SolverConfig } from "../../src/config/types.js";
import { FaultProxy } from "../support/fault-proxy.js";

/**
 * Starts one proxy per chain, each failing `failRate` of the calls (HTTP 500, 429 with Retry-After,
 * JSON-RPC errors, reset connections) from its own seed. On failure the proxies already started are in
 * `into`, for the caller to stop.
 */
export async function behindFaultProxies(
  base: SolverConfig,
  options: { failRate: number; seed: number },
  into: Map<string, FaultProxy>,
): Promise<SolverConfig> {
  for (const chain of base.chains) {
    const upstream = chain.rpcUrls[0];
    if (upstream === undefined) throw new Error(`chain ${chain.name} has no RPC URL to put a proxy before`);
    const proxy = new FaultProxy(upstream, {
      seed: options.seed + into.size,
      config: {
        failRate: options.failRate,
        faults: { http500: 1, http429: 1, rpcError: 1, reset: 1 },
        retryAfter: { seconds: 1, form: "seconds" },
      },
    });
    await proxy.start();
    into.set(chain.name, proxy);
  }
  const config: SolverConfig = {
    ...base,
    chains: base.chains.map((chain) => ({ ...chain, rpcUrls: [proxyOf(into, chain.name).url] })),
  };
  // Every URL the solver could reach a node by must be a proxy's, or calls would bypass the faults unseen.
  const proxied = new Set([...into.values()].map((p) => p.url));
  for (const chain of config.chains) {
    const urls = [...chain.rpcUrls, ...(chain.family === "bitcoin" ? chain.esploraUrls : [])];
    const bypass = urls.filter((url) => !proxied.has(url));
    if (bypass.length > 0)
      throw new Error(`chain ${chain.name} reaches ${bypass.join(", ")} past the proxies`);
  }
  return config;
}

function proxyOf(proxies: ReadonlyMap<string, FaultProxy>, chain: string): FaultProxy {
  const proxy = proxies.get(chain);
  if (proxy === undefined) throw new Error(`chain ${chain} has no fault proxy`);
  return proxy;
}
