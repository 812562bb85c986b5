/**
 * The Bitcoin regtest node as its own process (`--bitcoin-process`), as bitcoind runs apart from the
 * solver and the service: in the benchmark's process it shares one event loop with the simulated users,
 * the local service and the RPC proxies, and at N = 1000 that process is busy 90 % of one core, so every
 * Bitcoin read of the solver waits behind the users' work.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  RegtestEndpoint,
  StartBitcoinRegtestOptions,
} from "@htlc-solver/localnet/families/bitcoin/chain/index.js";
import { BenchChild } from "./child-process.js";

const MAIN = fileURLToPath(new URL("./bitcoin-node-main.ts", import.meta.url));

export interface BitcoinNodeProcess extends RegtestEndpoint {
  child: BenchChild;
}

export async function startBitcoinNodeProcess(
  options: StartBitcoinRegtestOptions,
  dir: string,
): Promise<BitcoinNodeProcess> {
  const optionsFile = join(dir, "bitcoin-node-options.json");
  const endpointFile = join(dir, "bitcoin-node-endpoint.json");
  const { logger: _logger, ...plain } = options;
  writeFileSync(
    optionsFile,
    JSON.stringify(plain, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value)),
  );
  const child = new BenchChild(
    "bitcoin node",
    ["--import", "tsx", MAIN, optionsFile, endpointFile],
    join(dir, "bitcoin-node.log"),
  );
  await child.waitUntil(() => Promise.resolve(existsSync(endpointFile)), endpointFile, 60_000);
  const endpoint = JSON.parse(readFileSync(endpointFile, "utf8")) as Omit<RegtestEndpoint, "stop">;
  return { ...endpoint, child, stop: () => child.stopCleanly() };
}
