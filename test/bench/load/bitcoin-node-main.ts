/**
 * The localnet's Bitcoin regtest node as its own process, for the load benchmark:
 * `node --import tsx test/bench/load/bitcoin-node-main.ts <options.json> <endpoint.json>`. Writes where its
 * RPC listens (with its generated credentials) to the endpoint file once up; stops cleanly on SIGTERM.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { pino } from "pino";
import { stopOnSigterm } from "./child-main.js";
import {
  startBitcoinRegtest,
  type StartBitcoinRegtestOptions,
} from "@htlc-solver/localnet/families/bitcoin/chain/index.js";

const [optionsPath, endpointPath] = process.argv.slice(2);
if (optionsPath === undefined || endpointPath === undefined)
  throw new Error("usage: bitcoin-node-main.ts <options JSON file> <endpoint JSON file to write>");
const options = JSON.parse(readFileSync(optionsPath, "utf8")) as StartBitcoinRegtestOptions;
const logger = pino({ level: process.env.BENCH_LOCALNET_LOG_LEVEL ?? "warn" });
const regtest = await startBitcoinRegtest({ ...options, logger });
const { rpcUrl, rpcUser, rpcPassword } = regtest;
// Written whole, then moved into place: the benchmark reads the file as soon as it exists.
writeFileSync(`${endpointPath}.partial`, JSON.stringify({ rpcUrl, rpcUser, rpcPassword }), { mode: 0o600 });
renameSync(`${endpointPath}.partial`, endpointPath);
stopOnSigterm("bitcoin node", () => regtest.stop(), logger);
