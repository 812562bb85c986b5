/**
 * The load benchmark's counting RPC proxies as their own process (unless `--shared-proxies`):
 * `node --import tsx test/bench/load/rpc-proxies-main.ts <upstreams.json> <endpoint.json>`. Starts one
 * proxy per chain of the upstreams file (chain name -> URL), writes each proxy's URL to the endpoint file
 * once all are up, and stops cleanly on SIGTERM.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { pino } from "pino";
import { FaultProxy } from "../../support/fault-proxy.js";
import { stopOnSigterm } from "./child-main.js";

const [upstreamsPath, endpointPath] = process.argv.slice(2);
if (upstreamsPath === undefined || endpointPath === undefined)
  throw new Error("usage: rpc-proxies-main.ts <upstreams JSON file> <endpoint JSON file to write>");
const upstreams = JSON.parse(readFileSync(upstreamsPath, "utf8")) as Record<string, string>;
const logger = pino({ level: "warn" });
const proxies = new Map<string, FaultProxy>();
for (const [chain, upstream] of Object.entries(upstreams)) {
  const proxy = new FaultProxy(upstream);
  await proxy.start();
  proxies.set(chain, proxy);
}
const urls = Object.fromEntries([...proxies].map(([chain, proxy]) => [chain, proxy.url]));
// Written whole, then moved into place: the benchmark reads the file as soon as it exists.
writeFileSync(`${endpointPath}.partial`, JSON.stringify(urls));
renameSync(`${endpointPath}.partial`, endpointPath);
stopOnSigterm(
  "RPC proxies",
  async () => {
    for (const proxy of proxies.values()) await proxy.stop();
  },
  logger,
);
