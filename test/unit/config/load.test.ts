import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { HTLC, NATIVE_HTLC, SECRETS, TEST_ENV, TOKEN, validSettings } from "./fixture.js";

const dir = mkdtempSync(join(tmpdir(), "solver-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeProfile(name: string, settings: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("fills schema defaults around a profile and converts amounts to bigint", () => {
    const config = loadConfig(CHAIN_FAMILIES, {
      file: writeProfile("valid.json", validSettings()),
      env: TEST_ENV,
    });
    expect(config.solver.pollIntervalMs).toBe(5000);
    expect(config.ops).toEqual({ host: "127.0.0.1", port: 7070 });
    expect(config.quote).toEqual({
      host: "127.0.0.1",
      port: 7071,
      listenBacklog: 4096,
      keepAliveTimeoutMs: 95_000,
      auth: { secret: SECRETS.quoteSecret, maxClockSkewMs: 30_000 },
      limits: { maxConcurrent: 256, perClientPerSecond: 200, perClientBurst: 1000 },
    });
    expect(config.log.level).toBe("info");
    expect(config.journal.path).toBe("./data/journal.sqlite");
    expect(config.safety).toEqual({
      timelockMarginMs: 3_600_000,
      redeemDeadlineMarginMs: 7_200_000,
      priceToleranceBps: 50,
      urgentRedeemFeeBps: 100,
      allowUnenforcedSecretLength: false,
    });
    expect(config.limits.maxInFlightUsdCents).toBe(1_000_000n);
    expect(config.limits.inventoryFloor).toEqual({ "ethereum_localnet:wbtc": 5000n });
    expect(config.strategies[0]).toMatchObject({
      minAmount: 10000n,
      maxAmount: 100000000n,
      fixedFee: 0n,
      spreadBps: 0,
    });
    expect(config.solver.keys).toEqual({
      evm: SECRETS.evmKey,
      bitcoin: SECRETS.bitcoinKey,
      solana: "",
      starknet: "",
      sui: "",
    });
  });

  it("derives asset ids and normalises addresses and native coins", () => {
    const config = loadConfig(CHAIN_FAMILIES, {
      file: writeProfile("assets.json", validSettings()),
      env: TEST_ENV,
    });
    const [evm, bitcoin] = config.chains;
    expect(evm?.family).toBe("evm");
    expect(evm?.assets.map((a) => a.id)).toEqual(["ethereum_localnet:eth", "ethereum_localnet:wbtc"]);
    expect(evm?.assets[0]?.tokenAddress).toBe("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");
    expect(evm?.assets[1]).toMatchObject({
      tokenAddress: TOKEN,
      htlcAddress: HTLC,
      chain: "ethereum_localnet",
    });
    expect(evm?.family === "evm" && evm.maxFeePerGasWei).toBe(100_000_000_000n);
    expect(bitcoin).toMatchObject({ backend: "bitcoind", feeRateFloorSatVb: 1, bumpAfterMs: 1_800_000 });
    expect(bitcoin?.assets[0]).toEqual({
      id: "bitcoin_regtest:btc",
      chain: "bitcoin_regtest",
      symbol: "btc",
      decimals: 8,
      tokenAddress: "primary",
      htlcAddress: "",
    });
  });

  it("lets the environment override the file", () => {
    const file = writeProfile("env.json", {
      ...validSettings(),
      ops: { port: 9000 },
      log: { level: "warn" },
    });
    const env = {
      ...TEST_ENV,
      SOLVER_OPS_PORT: "9100",
      SOLVER_LOG_LEVEL: "debug",
      SOLVER_SERVICE_URL: "http://127.0.0.1:4426",
      SOLVER_JOURNAL_PATH: "/tmp/j.sqlite",
      SOLVER_QUOTE_PORT: "0",
      SOLVER_MAX_IN_FLIGHT_USD_CENTS: "250",
      SOLVER_CHAIN_ETHEREUM_LOCALNET_RPC_URLS: "http://a.example:1, http://b.example:2",
      SOLVER_CHAIN_BITCOIN_REGTEST_RPC_PASSWORD: "from-env",
    };
    const config = loadConfig(CHAIN_FAMILIES, { file, env });
    expect(config.ops.port).toBe(9100);
    expect(config.quote.port).toBe(0);
    expect(config.log.level).toBe("debug");
    expect(config.service.url).toBe("http://127.0.0.1:4426");
    expect(config.journal.path).toBe("/tmp/j.sqlite");
    expect(config.limits.maxInFlightUsdCents).toBe(250n);
    const [evm, bitcoin] = config.chains;
    expect(evm?.family === "evm" && evm.rpcUrls).toEqual(["http://a.example:1", "http://b.example:2"]);
    expect(bitcoin?.family === "bitcoin" && bitcoin.rpcPassword).toBe("from-env");
  });

  it("gives the quote endpoint a deep accept queue unless told otherwise, and names a bad one", () => {
    const file = writeProfile("backlog.json", validSettings());
    expect(loadConfig(CHAIN_FAMILIES, { file, env: TEST_ENV }).quote.listenBacklog).toBe(4096);
    const told = loadConfig(CHAIN_FAMILIES, {
      file,
      env: { ...TEST_ENV, SOLVER_QUOTE_LISTEN_BACKLOG: "20000" },
    });
    expect(told.quote.listenBacklog).toBe(20_000);
    expect(
      problemsOf(() =>
        loadConfig(CHAIN_FAMILIES, { file, env: { ...TEST_ENV, SOLVER_QUOTE_LISTEN_BACKLOG: "0" } }),
      ),
    ).toEqual([expect.stringMatching(/^quote\.listenBacklog: /)]);
  });

  it("keeps the quote endpoint's idle connections open 95 s unless told otherwise, and names a bad value", () => {
    const file = writeProfile("keep-alive.json", validSettings());
    const told = loadConfig(CHAIN_FAMILIES, {
      file,
      env: { ...TEST_ENV, SOLVER_QUOTE_KEEP_ALIVE_TIMEOUT_MS: "120000" },
    });
    expect(told.quote.keepAliveTimeoutMs).toBe(120_000);
    expect(
      problemsOf(() =>
        loadConfig(CHAIN_FAMILIES, { file, env: { ...TEST_ENV, SOLVER_QUOTE_KEEP_ALIVE_TIMEOUT_MS: "5s" } }),
      ),
    ).toEqual([expect.stringMatching(/^quote\.keepAliveTimeoutMs: /)]);
  });

  it("leaves the quote endpoint open without a secret, and refuses a short one without quoting it", () => {
    const file = writeProfile("quote-auth.json", validSettings());
    const { SOLVER_QUOTE_AUTH_SECRET: _secret, ...withoutSecret } = TEST_ENV;
    expect(loadConfig(CHAIN_FAMILIES, { file, env: withoutSecret }).quote.auth.secret).toBe("");
    const short = "short-quote-secret";
    const problems = problemsOf(() =>
      loadConfig(CHAIN_FAMILIES, { file, env: { ...TEST_ENV, SOLVER_QUOTE_AUTH_SECRET: short } }),
    );
    expect(problems).toEqual([
      "quote.auth.secret: must be empty (quote requests unsigned) or at least 32 characters",
    ]);
    const skew = loadConfig(CHAIN_FAMILIES, {
      file,
      env: { ...TEST_ENV, SOLVER_QUOTE_AUTH_MAX_CLOCK_SKEW_MS: "5000" },
    });
    expect(skew.quote.auth.maxClockSkewMs).toBe(5000);
  });

  it("reads the quote endpoint's limits from the environment, and names a bad one", () => {
    const file = writeProfile("quote-limits.json", validSettings());
    const env = {
      ...TEST_ENV,
      SOLVER_QUOTE_MAX_CONCURRENT: "64",
      SOLVER_QUOTE_PER_CLIENT_PER_SECOND: "50",
      SOLVER_QUOTE_PER_CLIENT_BURST: "100",
    };
    expect(loadConfig(CHAIN_FAMILIES, { file, env }).quote.limits).toEqual({
      maxConcurrent: 64,
      perClientPerSecond: 50,
      perClientBurst: 100,
    });
    expect(
      problemsOf(() =>
        loadConfig(CHAIN_FAMILIES, { file, env: { ...TEST_ENV, SOLVER_QUOTE_PER_CLIENT_BURST: "0" } }),
      ),
    ).toEqual([expect.stringMatching(/^quote\.limits\.perClientBurst: /)]);
  });

  it("reads a switch from the environment as true or false, and names the key for anything else", () => {
    const file = writeProfile("switch.json", validSettings());
    const on = loadConfig(CHAIN_FAMILIES, {
      file,
      env: { ...TEST_ENV, SOLVER_ALLOW_UNENFORCED_SECRET_LENGTH: "true" },
    });
    expect(on.safety.allowUnenforcedSecretLength).toBe(true);
    expect(
      problemsOf(() =>
        loadConfig(CHAIN_FAMILIES, {
          file,
          env: { ...TEST_ENV, SOLVER_ALLOW_UNENFORCED_SECRET_LENGTH: "yes" },
        }),
      ),
    ).toEqual(['safety.allowUnenforcedSecretLength: "yes" must be true or false']);
  });

  it("merges overrides last: over the environment, chains by name and assets by symbol", () => {
    const file = writeProfile("over.json", validSettings());
    const config = loadConfig(CHAIN_FAMILIES, {
      file,
      env: { ...TEST_ENV, SOLVER_OPS_PORT: "9100" },
      overrides: {
        ops: { port: 0 },
        solver: { keys: { evm: `0x${"d4".repeat(32)}` } },
        chains: [
          {
            name: "ethereum_localnet",
            rpcUrls: ["http://127.0.0.1:40001"],
            assets: [{ symbol: "wbtc", htlcAddress: NATIVE_HTLC }],
          },
        ],
      },
    });
    expect(config.ops.port).toBe(0);
    expect(config.solver.keys.evm).toBe(`0x${"d4".repeat(32)}`);
    expect(config.chains).toHaveLength(2);
    const evm = config.chains[0];
    expect(evm?.family === "evm" && evm.rpcUrls).toEqual(["http://127.0.0.1:40001"]);
    expect(evm?.assets[1]).toMatchObject({ symbol: "wbtc", htlcAddress: NATIVE_HTLC, tokenAddress: TOKEN });
    expect(evm?.assets[0]?.htlcAddress).toBe(NATIVE_HTLC);
  });

  it("reads a single Bitcoin URL as a list of one, and fills RPC tuning defaults per family", () => {
    const config = loadConfig(CHAIN_FAMILIES, { env: TEST_ENV, overrides: validSettings() });
    const [evm, bitcoin] = config.chains;
    expect(bitcoin).toMatchObject({
      rpcUrls: ["http://127.0.0.1:18443"],
      esploraUrls: [],
      maxHeadLagBlocks: 1,
      rpcTimeoutMs: 30_000,
      // Two hours without a block, and the median time past six blocks (of at most 10 s) behind.
      maxHeadAgeMs: 7_260_000,
    });
    // Ten blocks of at most 2 s, but never under a minute.
    expect(evm).toMatchObject({ maxHeadLagBlocks: 3, rpcTimeoutMs: 15_000, maxHeadAgeMs: 60_000 });
  });

  it("takes several Bitcoin and Esplora URLs from the file or the environment", () => {
    const settings = validSettings();
    const bitcoin = (settings.chains as Record<string, unknown>[])[1]!;
    delete bitcoin.rpcUrl;
    bitcoin.rpcUrls = ["http://node-a:8332", "http://node-b:8332"];
    bitcoin.esploraUrl = "https://esplora.example/api";
    bitcoin.maxHeadLagBlocks = 2;
    const fromFile = loadConfig(CHAIN_FAMILIES, {
      file: writeProfile("btc-urls.json", settings),
      env: TEST_ENV,
    }).chains[1];
    expect(fromFile).toMatchObject({
      rpcUrls: ["http://node-a:8332", "http://node-b:8332"],
      esploraUrls: ["https://esplora.example/api"],
      maxHeadLagBlocks: 2,
    });
    const env = {
      ...TEST_ENV,
      // One URL from the environment replaces the file's list; a list replaces the file's one URL.
      SOLVER_CHAIN_BITCOIN_REGTEST_RPC_URL: "http://node-c:8332",
      SOLVER_CHAIN_BITCOIN_REGTEST_ESPLORA_URLS: "https://e1.example/api, https://e2.example/api",
    };
    const fromEnv = loadConfig(CHAIN_FAMILIES, { file: writeProfile("btc-urls-env.json", settings), env })
      .chains[1];
    expect(fromEnv).toMatchObject({
      rpcUrls: ["http://node-c:8332"],
      esploraUrls: ["https://e1.example/api", "https://e2.example/api"],
    });
  });

  it("builds a whole configuration from overrides alone", () => {
    const config = loadConfig(CHAIN_FAMILIES, { env: TEST_ENV, overrides: validSettings() });
    expect(config.chains.map((c) => c.name)).toEqual(["ethereum_localnet", "bitcoin_regtest"]);
  });

  it("accepts keys without 0x and normalises their case and prefix", () => {
    const env = {
      ...TEST_ENV,
      SOLVER_EVM_PRIVATE_KEY: "A1".repeat(32),
      SOLVER_BITCOIN_PRIVATE_KEY: `0x${"B2".repeat(32)}`,
    };
    const config = loadConfig(CHAIN_FAMILIES, { overrides: validSettings(), env });
    expect(config.solver.keys).toEqual({
      evm: SECRETS.evmKey,
      bitcoin: SECRETS.bitcoinKey,
      solana: "",
      starknet: "",
      sui: "",
    });
  });

  it("does not require the key of a family without chains", () => {
    const settings = validSettings();
    settings.chains = (settings.chains as { family: string }[]).filter((c) => c.family === "evm");
    settings.strategies = [];
    settings.fixedPrices = {};
    settings.limits = {};
    const config = loadConfig(CHAIN_FAMILIES, {
      overrides: settings,
      env: { ...TEST_ENV, SOLVER_BITCOIN_PRIVATE_KEY: "" },
    });
    expect(config.solver.keys.bitcoin).toBe("");
  });

  it("ignores // comment keys at any depth", () => {
    const settings = validSettings();
    settings["//"] = "top";
    (settings.chains as Record<string, unknown>[])[0]!["//"] = "inside a chain";
    expect(() =>
      loadConfig(CHAIN_FAMILIES, { file: writeProfile("comments.json", settings), env: TEST_ENV }),
    ).not.toThrow();
  });

  it("refuses private keys inside the profile file", () => {
    const file = writeProfile("keys.json", {
      ...validSettings(),
      solver: { id: "aa", keys: { evm: SECRETS.evmKey } },
    });
    const problems = problemsOf(() => loadConfig(CHAIN_FAMILIES, { file, env: TEST_ENV }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^solver\.keys: private keys are not read from the config file/);
    expect(problems.join("\n")).not.toContain(SECRETS.evmKey.slice(2));
  });

  it("reports a missing or malformed profile file by its path", () => {
    expect(
      problemsOf(() => loadConfig(CHAIN_FAMILIES, { file: join(dir, "absent.json"), env: TEST_ENV }))[0],
    ).toBe(`${join(dir, "absent.json")}: cannot be read (ENOENT)`);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ not json");
    expect(problemsOf(() => loadConfig(CHAIN_FAMILIES, { file: broken, env: TEST_ENV }))[0]).toMatch(
      /broken\.json: is not valid JSON/,
    );
  });

  it("loads the localnet profile once the localnet command supplies addresses and ports", () => {
    const evmAssets = [
      { symbol: "eth", htlcAddress: NATIVE_HTLC },
      { symbol: "usdc", tokenAddress: TOKEN, htlcAddress: HTLC },
      { symbol: "wbtc", tokenAddress: HTLC, htlcAddress: TOKEN },
    ];
    const config = loadConfig(CHAIN_FAMILIES, {
      file: "config/localnet.json",
      env: {
        SOLVER_EVM_PRIVATE_KEY: SECRETS.evmKey,
        SOLVER_BITCOIN_PRIVATE_KEY: SECRETS.bitcoinKey,
        SOLVER_SOLANA_PRIVATE_KEY: SECRETS.solanaKey,
      },
      overrides: {
        service: { url: "http://127.0.0.1:41000" },
        chains: [
          { name: "ethereum_localnet", rpcUrls: ["http://127.0.0.1:41001"], assets: evmAssets },
          { name: "arbitrum_localnet", rpcUrls: ["http://127.0.0.1:41002"], assets: evmAssets },
          { name: "bitcoin_regtest", rpcUrl: "http://127.0.0.1:41003", rpcUser: "u", rpcPassword: "p" },
          {
            name: "solana_localnet",
            rpcUrls: ["http://127.0.0.1:41004"],
            assets: [{ symbol: "usdc", tokenAddress: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" }],
          },
        ],
        ops: { port: 0 },
        quote: { port: 0 },
      },
    });
    expect(
      config.chains.map((c) => [
        c.name,
        c.family === "bitcoin" ? c.network : "chainId" in c ? c.chainId : null,
      ]),
    ).toEqual([
      ["ethereum_localnet", 31337],
      ["arbitrum_localnet", 31338],
      ["bitcoin_regtest", "regtest"],
      ["solana_localnet", 103],
    ]);
    expect(config.strategies.length).toBeGreaterThan(0);
    expect(config.service.url).toBe("http://127.0.0.1:41000");
  });

  it("names every unfilled localnet address when the profile is loaded alone", () => {
    const env = { ...TEST_ENV, SOLVER_SOLANA_PRIVATE_KEY: SECRETS.solanaKey };
    const problems = problemsOf(() => loadConfig(CHAIN_FAMILIES, { file: "config/localnet.json", env }));
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatch(
        /^chains\[([01]\]\.assets\[\d\]\.(htlcAddress|tokenAddress)|3\]\.assets\[1\]\.tokenAddress): is required$/,
      );
    }
  });
});
