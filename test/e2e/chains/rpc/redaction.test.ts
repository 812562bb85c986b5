/**
 * RPC URLs carry API keys, in forms no pattern tells from an ordinary path (QuickNode's short token, a
 * word). With endpoints whose URLs hold user info, keys in the path and a token in the query, `config
 * check` and failing requests on both chain families must leave the secrets in no error, log line,
 * metric label, /health, /status or /metrics answer: URLs are shown as scheme, host and port only.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../../src/chains/registry.js";
import { createBitcoinBackend } from "../../../../src/chains/bitcoin/family.js";
import { createEvmRpc } from "../../../../src/chains/evm/client.js";
import { loadConfig } from "../../../../src/config/load.js";
import type { SolverConfig } from "../../../../src/config/types.js";
import { Journal } from "../../../../src/journal/journal.js";
import { startAnvil, type AnvilInstance } from "@htlc-solver/localnet/families/evm/anvil.js";
import { SolverMetrics } from "../../../../src/ops/metrics.js";
import type { OpsServer } from "../../../../src/ops/server.js";
import { createSolverOps } from "../../../../src/ops/solver-ops.js";
import { createPricing } from "../../../../src/pricing/pricing.js";
import { runCli } from "../../../../src/cli.js";
import { createLogger } from "../../../../src/util/logger.js";
import { recordingIo } from "../../../unit/cli/io.js";
import { startBitcoinForTests, type BitcoinTestNode } from "../../../support/bitcoin-node.js";
import { FaultProxy } from "../../../support/fault-proxy.js";
import { SECRETS as CONFIG_SECRETS, TEST_ENV, validSettings } from "../../../unit/config/fixture.js";
import type { BitcoinChainConfig } from "../../../../src/chains/bitcoin/config.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";
import { freeNetworkIo } from "../../../support/network-fees.js";

/** A short token and a word before a long key: only the last looks like a key to a pattern. */
const KEY_PATH = "/shortk3y/projectsecret/v3/0123456789abcdefABCDEF?apikey=SECRET";
const SECRETS = [
  ":pass@",
  "shortk3y",
  "projectsecret",
  "0123456789abcdefABCDEF",
  "SECRET",
  CONFIG_SECRETS.urlPassword,
  CONFIG_SECRETS.apiKey,
];
/** The URL of the issue, on a host that does not resolve. */
const UNRESOLVABLE = `https://user:pass@rpc.example${KEY_PATH}`;
const ZERO = "0x0000000000000000000000000000000000000000";

let anvil: AnvilInstance;
let bitcoin: BitcoinTestNode;
let evmProxy: FaultProxy;
let bitcoinProxy: FaultProxy;
let server: OpsServer | null = null;
const lines: string[] = [];

beforeAll(async () => {
  [anvil, bitcoin] = await Promise.all([startAnvil({ chainId: 31_460 }), startBitcoinForTests()]);
  evmProxy = new FaultProxy(anvil.rpcUrl, { seed: 3 });
  bitcoinProxy = new FaultProxy(bitcoin.rpcUrl, { seed: 4, config: { failRate: 1, faults: { http500: 1 } } });
  await Promise.all([evmProxy.start(), bitcoinProxy.start()]);
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([evmProxy?.stop(), bitcoinProxy?.stop()]);
  await Promise.all([anvil?.stop(), bitcoin?.stop()]);
});

/** The fixture's configuration with keyed endpoint URLs on both chains. */
function keyedConfig(): SolverConfig {
  const settings = validSettings();
  const [evm, btc] = settings.chains as Record<string, unknown>[];
  const keyed = (url: string) => url.replace("http://", "http://user:pass@") + KEY_PATH;
  Object.assign(evm!, { chainId: 31_460, rpcUrls: [keyed(evmProxy.url), UNRESOLVABLE], rpcTimeoutMs: 1_000 });
  delete btc!.rpcUrl;
  Object.assign(btc!, { rpcUrls: [keyed(bitcoinProxy.url)], rpcTimeoutMs: 1_000 });
  settings.ops = { port: 0 };
  return loadConfig(CHAIN_FAMILIES, { env: TEST_ENV, overrides: settings });
}

function textOf(error: unknown): string {
  return error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
}

describe("RPC URL credentials", () => {
  it("appear nowhere in config check", async () => {
    const settings = validSettings();
    const [evm] = settings.chains as Record<string, unknown>[];
    evm!.rpcUrls = [`https://user:pass@rpc.example${KEY_PATH}`];
    settings.prices = { exchanges: { binance: { baseUrl: `https://api.example${KEY_PATH}` } } };
    const file = join(mkdtempSync(join(tmpdir(), "redaction-")), "solver.json");
    writeFileSync(file, JSON.stringify(settings));
    const io = recordingIo(TEST_ENV);
    expect(await runCli(["config", "check", "--config", file], { io })).toBe(0);
    const printed = [...io.out, ...io.err].join("\n");
    for (const secret of SECRETS) expect(printed, `config check holds ${secret}`).not.toContain(secret);
    expect(printed).toContain('"https://rpc.example"');
    expect(printed).toContain('"baseUrl": "https://api.example"');
  });

  it("appear in no error, log line, metric label, /health, /status or /metrics answer of failing requests", async () => {
    const logger = createLogger({
      level: "debug",
      destination: new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(
            ...chunk
              .toString()
              .split("\n")
              .filter((l) => l !== ""),
          );
          done();
        },
      }),
    });
    const config = keyedConfig();
    const evmConfig = config.chains[0] as EvmChainConfig;
    const btcConfig = config.chains[1] as BitcoinChainConfig;
    const { client } = createEvmRpc(evmConfig, { logger });
    const backend = createBitcoinBackend(btcConfig, { logger });
    // The keyed endpoint works while the proxy lets calls through.
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(0n);
    evmProxy.configure({ failRate: 1, faults: { http500: 1 } });

    const evmError = await client.getBalance({ address: ZERO }).catch((e: unknown) => e);
    const btcError = await backend.tipHeight().catch((e: unknown) => e);
    for (const error of [evmError, btcError]) {
      expect(error).toBeInstanceOf(Error);
      for (const secret of SECRETS) expect(textOf(error)).not.toContain(secret);
    }
    expect(textOf(evmError)).toContain("https://rpc.example ");

    const chains = new Map([
      [evmConfig.name, { reader: { tipHeight: () => client.getBlockNumber({ cacheTime: 0 }) } }],
      [btcConfig.name, { reader: { tipHeight: async () => BigInt(await backend.tipHeight()) } }],
    ]);
    const pricing = createPricing(config, {
      balances: { balance: () => client.getBalance({ address: ZERO }) },
      committed: () => 0n,
      ...freeNetworkIo(config.chains),
    });
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), "redaction-")), "journal.sqlite"));
    const metrics = new SolverMetrics({ processMetrics: false });
    const ops = createSolverOps({ config, chains, pricing, journal, logger, metrics });
    await ops.probe.refresh();
    const roundError = (evmError as Error).message;
    logger.error({ err: evmError }, "round failed");
    logger.warn({ err: btcError, chain: btcConfig.name }, "bitcoin read failed");
    // A metric label quoting an error, as a refusal reason might.
    metrics.decisions.inc({ outcome: "wait", reason: roundError });
    server = await ops.listen({ lastTickMs: Date.now(), lastTickError: roundError });

    const answers: Record<string, string> = {};
    for (const path of ["/health", "/status", "/metrics"]) {
      answers[path] = await (await fetch(`${server.url}${path}`)).text();
    }
    const logText = lines.join("\n");
    for (const [where, text] of Object.entries({ ...answers, logs: logText })) {
      for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
    }
    // The failures did reach every one of them, the endpoints named by scheme, host and port.
    const evmEndpoint = new URL(evmProxy.url).host;
    for (const text of [answers["/health"], answers["/status"], answers["/metrics"], logText]) {
      expect(text).toContain(`http://${evmEndpoint}`);
      expect(text).not.toContain(`${evmEndpoint}/`);
    }
    expect(lines.some((l) => l.includes("chain did not answer its tip"))).toBe(true);
    journal.close();
  });
});
