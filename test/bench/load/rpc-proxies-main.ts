/**
 * The load benchmark's counting RPC proxies as their own process (unless `--shared-proxies`):
 * `node --import tsx test/bench/load/rpc-proxies-main.ts <upstreams.json> <endpoint.json>`. Starts one
 * proxy per chain of the upstreams file (chain name -> URL), writes each proxy's URL to the endpoint file
 * once all are up, and stops cleanly on SIGTERM.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pino } from "pino";
import { stopOnSigterm } from "./child-main.js";
import { startRpcProxies } from "./rpc-proxies.js";

const [upstreamsPath, endpointPath] = process.argv.slice(2);
if (upstreamsPath === undefined || endpointPath === undefined)
  throw new Error("usage: rpc-proxies-main.ts <upstreams JSON file> <endpoint JSON file to write>");
const upstreams = JSON.parse(readFileSync(upstreamsPath, "utf8")) as Record<string, string>;
const logger = pino({ level: "warn" });
const proxies = await startRpcProxies(new Map(Object.entries(upstreams)), {
  ownProcess: false,
  dir: dirname(endpointPath),
});
// Written whole, then moved into place: the benchmark reads the file as soon as it exists.
writeFileSync(`${endpointPath}.partial`, JSON.stringify(Object.fromEntries(proxies.urls)));
renameSync(`${endpointPath}.partial`, endpointPath);
stopOnSigterm("RPC proxies", () => proxies.stop(), logger);
