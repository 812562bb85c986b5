/**
 * The local service as its own process, for the load benchmark:
 * `node --import tsx test/bench/load/service-main.ts <config.json>`. Stops cleanly on SIGTERM.
 */
import { readFileSync } from "node:fs";
import { pino } from "pino";
import type { LocalServiceConfig } from "@htlc-solver/localnet/service/config.js";
import { stopOnSigterm } from "./child-main.js";
import { startLocalService } from "@htlc-solver/localnet/service/service.js";

const configPath = process.argv[2];
if (configPath === undefined) throw new Error("usage: service-main.ts <local service config JSON file>");
const config = JSON.parse(readFileSync(configPath, "utf8")) as LocalServiceConfig;
const logger = pino({ level: process.env.BENCH_LOCALNET_LOG_LEVEL ?? "warn" });
const service = await startLocalService(config, logger);
logger.info({ url: service.url }, "local service up in its own process");
stopOnSigterm("local service", () => service.stop(), logger);
