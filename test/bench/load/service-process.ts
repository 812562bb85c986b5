/**
 * The local service as its own process (`--service-process`), its CPU measured apart: in the benchmark's
 * process it shares one event loop with the simulated users, the Bitcoin node and the RPC proxies.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LocalServiceConfig } from "@htlc-solver/localnet/service/config.js";
import type { LocalService } from "@htlc-solver/localnet/service/service.js";
import { answers, BenchChild } from "./child-process.js";

const MAIN = fileURLToPath(new URL("./service-main.ts", import.meta.url));

export interface ServiceProcess extends LocalService {
  child: BenchChild;
}

/** Starts the service at its configured port (not 0: the URL is known before it is up). */
export async function startServiceProcess(
  config: LocalServiceConfig,
  dir: string,
  nodeArgs: readonly string[] = [],
): Promise<ServiceProcess> {
  if (config.port === 0) throw new Error("a service in its own process needs a fixed port, got 0");
  const configFile = join(dir, "service.json");
  writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  const child = new BenchChild(
    "local service",
    [...nodeArgs, "--import", "tsx", MAIN, configFile],
    join(dir, "service.log"),
  );
  const url = `http://${config.host}:${config.port}`;
  const appId = config.appIds[0] ?? "";
  await child.waitUntil(() => answers(`${url}/health`, { "service-app-id": appId }), `${url}/health`, 60_000);
  return {
    url,
    child,
    stop: () => child.stopCleanly(),
  };
}
