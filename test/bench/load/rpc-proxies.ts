/**
 * The counting RPC proxies in front of each chain the solver reads, as their own process, as an RPC node
 * runs apart from the solver. With `--shared-proxies` they run in the benchmark's own process, sharing
 * one event loop with the simulated users and the local service (held up to 0.3-0.4 s at N = 1000):
 * every RPC round trip of the solver then waits behind that work, and at N = 1000 fills landed 3-5
 * blocks after confirmation at p99 instead of 1-3. Counts are read and zeroed over each proxy's control
 * interface either way.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONTROL_PATH, FaultProxy, type MethodCounts } from "../../support/fault-proxy.js";
import { BenchChild } from "./child-process.js";

const MAIN = fileURLToPath(new URL("./rpc-proxies-main.ts", import.meta.url));

export interface RpcProxies {
  /** Proxy URL per chain name. */
  readonly urls: ReadonlyMap<string, string>;
  /** The proxies' own process, when they run apart. */
  readonly child: BenchChild | null;
  reset(): Promise<void>;
  counts(): Promise<Map<string, Record<string, MethodCounts>>>;
  stop(): Promise<void>;
}

/** One proxy per chain (name -> upstream URL), in this process or in a process of their own. */
export async function startRpcProxies(
  upstreams: ReadonlyMap<string, string>,
  options: { ownProcess: boolean; dir: string },
): Promise<RpcProxies> {
  if (!options.ownProcess) {
    const proxies = new Map<string, FaultProxy>();
    try {
      for (const [chain, upstream] of upstreams) {
        const proxy = new FaultProxy(upstream);
        proxies.set(chain, proxy);
        await proxy.start();
      }
    } catch (error) {
      for (const proxy of proxies.values()) await proxy.stop();
      throw error;
    }
    const urls = new Map([...proxies].map(([chain, proxy]) => [chain, proxy.url]));
    return controlled(urls, null, async () => {
      for (const proxy of proxies.values()) await proxy.stop();
    });
  }
  const upstreamsFile = join(options.dir, "rpc-proxies-upstreams.json");
  const endpointFile = join(options.dir, "rpc-proxies-endpoint.json");
  writeFileSync(upstreamsFile, JSON.stringify(Object.fromEntries(upstreams)));
  const child = new BenchChild(
    "RPC proxies",
    ["--import", "tsx", MAIN, upstreamsFile, endpointFile],
    join(options.dir, "rpc-proxies.log"),
  );
  await child.waitUntil(() => Promise.resolve(existsSync(endpointFile)), endpointFile, 60_000);
  const urls = new Map(
    Object.entries(JSON.parse(readFileSync(endpointFile, "utf8")) as Record<string, string>),
  );
  return controlled(urls, child, () => child.stopCleanly());
}

function controlled(
  urls: ReadonlyMap<string, string>,
  child: BenchChild | null,
  stop: () => Promise<void>,
): RpcProxies {
  const control = async (url: string, method: "GET" | "POST", action = ""): Promise<unknown> => {
    const response = await fetch(`${url}${CONTROL_PATH}${action}`, { method });
    const body = await response.text();
    if (!response.ok)
      throw new Error(`RPC proxy ${url}: control ${method} ${action} answered ${response.status}: ${body}`);
    return JSON.parse(body) as unknown;
  };
  return {
    urls,
    child,
    reset: async () => {
      await Promise.all([...urls.values()].map((url) => control(url, "POST", "/reset")));
    },
    counts: async () => {
      const entries = await Promise.all(
        [...urls].map(async ([chain, url]) => {
          const state = (await control(url, "GET")) as { counts: Record<string, MethodCounts> };
          return [chain, state.counts] as const;
        }),
      );
      return new Map(entries);
    },
    stop,
  };
}
