import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { SECRETS, TEST_ENV, validSettings } from "./fixture.js";

type Settings = Record<string, unknown>;
type Mutation = (s: Settings) => void;

const evmChain = (s: Settings) => (s.chains as Settings[])[0]!;
const bitcoinChain = (s: Settings) => (s.chains as Settings[])[1]!;
const evmAsset = (s: Settings, i: number) => (evmChain(s).assets as Settings[])[i]!;
const strategy = (s: Settings) => (s.strategies as Settings[])[0]!;

function problemsFor(mutate: Mutation, env: NodeJS.ProcessEnv = TEST_ENV): readonly string[] {
  const settings = validSettings();
  mutate(settings);
  try {
    loadConfig(CHAIN_FAMILIES, { overrides: settings, env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const cases: [string, Mutation, string][] = [
  [
    "an rpc URL with a wrong scheme",
    (s) => (
      (s.chains as Settings[]).push({ ...evmChain(s), name: "second", chainId: 5, rpcUrls: ["htp://x"] }),
      s
    ),
    'chains[2].rpcUrls[0]: "htp://x" is not an http(s) URL',
  ],
  [
    "a fractional amount",
    (s) => (strategy(s).minAmount = "1.5"),
    'strategies[0].minAmount: "1.5" must be an integer amount in smallest units',
  ],
  [
    "an amount above 2^53 as a number",
    (s) => (strategy(s).maxAmount = 2 ** 60),
    "strategies[0].maxAmount: 1152921504606847000 is above 2^53 and loses precision; write it as a decimal string",
  ],
  [
    "min above max",
    (s) => (strategy(s).minAmount = "200000000"),
    "strategies[0].minAmount: 200000000 must not exceed maxAmount 100000000",
  ],
  [
    "a strategy on an unknown asset",
    (s) => (strategy(s).to = "ethereum_localnet:usdt"),
    'strategies[0].to: "ethereum_localnet:usdt" is not a configured asset (<chain>:<symbol> of chains[].assets)',
  ],
  [
    "a strategy from an asset to itself",
    (s) => (strategy(s).to = "bitcoin_regtest:btc"),
    "strategies[0].to: must differ from `from`",
  ],
  [
    "fee over 100%",
    (s) => (strategy(s).feeBps = 10_001),
    "strategies[0].feeBps: 10001 must be at most 10000",
  ],
  [
    "a duplicated pair",
    (s) => (s.strategies as Settings[]).push({ ...strategy(s) }),
    "strategies[1].to: the pair bitcoin_regtest:btc -> ethereum_localnet:wbtc already has a strategy",
  ],
  [
    "a fixed price missing for a strategy",
    (s) => (s.fixedPrices = { "bitcoin_regtest:btc": "1" }),
    'strategies[0].to: "ethereum_localnet:wbtc" has no price in fixedPrices, which priceSource "fixed" needs',
  ],
  [
    "an unknown price source",
    (s) => (strategy(s).priceSource = "oracle"),
    'strategies[0].priceSource: "oracle" must be one of fixed, live',
  ],
  [
    "a mis-checksummed address",
    (s) => (evmAsset(s, 1).htlcAddress = "0x5fbDB2315678afecb367f032d93F642f64180aa3"),
    'chains[0].assets[1].htlcAddress: "0x5fbDB2315678afecb367f032d93F642f64180aa3" has a wrong EIP-55 checksum; write it checksummed or all lower-case',
  ],
  [
    "a short address",
    (s) => (evmAsset(s, 1).tokenAddress = "0x1234"),
    'chains[0].assets[1].tokenAddress: "0x1234" is not an EVM address (0x and 40 hex digits), nor "native" or "service"',
  ],
  [
    "the zero address as HTLC",
    (s) => (evmAsset(s, 0).htlcAddress = `0x${"0".repeat(40)}`),
    "chains[0].assets[0].htlcAddress: is the zero address",
  ],
  [
    "an asset id that disagrees with its chain",
    (s) => (evmAsset(s, 0).id = "other:eth"),
    'chains[0].assets[0].id: "other:eth" must be "ethereum_localnet:eth"',
  ],
  [
    "a duplicated symbol",
    (s) => (evmChain(s).assets as Settings[]).push({ ...evmAsset(s, 0) }),
    'chains[0].assets[2].symbol: "eth" is listed twice',
  ],
  [
    "too many decimals",
    (s) => (evmAsset(s, 0).decimals = 40),
    "chains[0].assets[0].decimals: 40 must be at most 36",
  ],
  [
    "a duplicated chain name",
    (s) => (s.chains as Settings[]).push({ ...evmChain(s), chainId: 9 }),
    'chains[2].name: "ethereum_localnet" is used by another chain',
  ],
  [
    "a bad chain name",
    (s) => (s.chains as Settings[]).push({ ...evmChain(s), name: "Ethereum Main", chainId: 7 }),
    "chains[2].name: \"Ethereum Main\" must be lower-case letters, digits and '_', starting with a letter",
  ],
  [
    "an unsupported family",
    (s) => (bitcoinChain(s).family = "aptos"),
    'chains[1].family: "aptos" must be one of evm, bitcoin, solana, starknet, sui',
  ],
  [
    "a missing chain field",
    (s) => delete evmChain(s).fillTimelockBlocks,
    "chains[0].fillTimelockBlocks: is required",
  ],
  [
    "an unknown chain field (a typo)",
    (s) => (evmChain(s).rpcUrl = "http://x"),
    "chains[0].rpcUrl: is not a setting of an evm chain",
  ],
  [
    "inverted block time bounds",
    (s) => (evmChain(s).minBlockTimeMs = 5000),
    "chains[0].minBlockTimeMs: 5000 must not exceed maxBlockTimeMs 2000",
  ],
  [
    "zero confirmations",
    (s) => (evmChain(s).minConfirmations = 0),
    "chains[0].minConfirmations: 0 must be at least 1",
  ],
  ["no rpc URLs", (s) => (evmChain(s).rpcUrls = []), "chains[0].rpcUrls: must not be empty"],
  [
    "a CSV lock above 16 bits",
    (s) => (bitcoinChain(s).fillTimelockBlocks = 70_000),
    "chains[1].fillTimelockBlocks: 70000 must be at most 65535",
  ],
  [
    "esplora without its URL",
    (s) => (bitcoinChain(s).backend = "esplora"),
    "chains[1].esploraUrls: is required with backend esplora (or esploraUrl for a single server)",
  ],
  [
    "bitcoind without any URL",
    (s) => delete bitcoinChain(s).rpcUrl,
    "chains[1].rpcUrls: is required with backend bitcoind (or rpcUrl for a single node)",
  ],
  [
    "both forms of the bitcoind URLs",
    (s) => (bitcoinChain(s).rpcUrls = ["http://127.0.0.1:18444"]),
    "chains[1].rpcUrl: give either rpcUrl (one URL) or rpcUrls (a list), not both",
  ],
  [
    "a wrong URL in a bitcoind list",
    (s) => (delete bitcoinChain(s).rpcUrl, (bitcoinChain(s).rpcUrls = ["http://a:1", "ftp://b"])),
    'chains[1].rpcUrls[1]: "ftp://b" is not an http(s) URL',
  ],
  [
    "a wrong URL in an esplora list",
    (s) => ((bitcoinChain(s).backend = "esplora"), (bitcoinChain(s).esploraUrls = ["x"])),
    'chains[1].esploraUrls[0]: "x" is not an http(s) URL',
  ],
  [
    "a negative head lag",
    (s) => (evmChain(s).maxHeadLagBlocks = -1),
    "chains[0].maxHeadLagBlocks: -1 must be at least 0",
  ],
  [
    "a head age under one block",
    (s) => (evmChain(s).maxHeadAgeMs = 1_500),
    "chains[0].maxHeadAgeMs: 1500 must be at least maxBlockTimeMs 2000",
  ],
  [
    "a tiny RPC timeout",
    (s) => (bitcoinChain(s).rpcTimeoutMs = 5),
    "chains[1].rpcTimeoutMs: 5 must be at least 100",
  ],
  [
    "a wrong bitcoin network",
    (s) => (bitcoinChain(s).network = "signet"),
    'chains[1].network: "signet" must be one of mainnet, testnet, regtest',
  ],
  [
    "fee floor above ceiling",
    (s) => (bitcoinChain(s).feeRateFloorSatVb = 500),
    "chains[1].feeRateFloorSatVb: 500 must not exceed feeRateCeilingSatVb",
  ],
  [
    "a price for an unknown asset",
    (s) => (s.fixedPrices = { ...(s.fixedPrices as Settings), "x:y": "1" }),
    'fixedPrices["x:y"]: is not a configured asset (<chain>:<symbol> of chains[].assets)',
  ],
  [
    "a price as a float",
    (s) => (s.fixedPrices = { ...(s.fixedPrices as Settings), "ethereum_localnet:eth": 3000.5 }),
    'fixedPrices["ethereum_localnet:eth"]: 3000.5 must be a decimal string such as "1.25"',
  ],
  [
    "a negative limit",
    (s) => (s.limits = { maxOrderAmount: { "bitcoin_regtest:btc": "-1" } }),
    'limits.maxOrderAmount["bitcoin_regtest:btc"]: "-1" must be an integer amount in smallest units',
  ],
  [
    "a limit on an unknown asset",
    (s) => (s.limits = { inventoryFloor: { "ethereum_localnet:usdt": "1" } }),
    'limits.inventoryFloor["ethereum_localnet:usdt"]: is not a configured asset (<chain>:<symbol> of chains[].assets)',
  ],
  [
    "a bad in-flight limit",
    (s) => (s.limits = { maxInFlightUsdCents: "lots" }),
    'limits.maxInFlightUsdCents: "lots" must be an integer amount in smallest units',
  ],
  ["a port out of range", (s) => (s.ops = { port: 70_000 }), "ops.port: 70000 must be at most 65535"],
  [
    "an unknown log level",
    (s) => (s.log = { level: "loud" }),
    'log.level: "loud" must be one of trace, debug, info, warn, error, fatal',
  ],
  [
    "an unknown top-level setting",
    (s) => (s.colour = "blue"),
    "colour: is not a known setting (in overrides)",
  ],
  [
    "an unknown nested setting",
    (s) => (s.ops = { prot: 1 }),
    "ops.prot: is not a known setting (in overrides)",
  ],
  [
    "a group given as a value",
    (s) => (s.safety = 5),
    "safety: 5 must be an object with timelockMarginMs, redeemDeadlineMarginMs, priceToleranceBps, urgentRedeemFeeBps, allowUnenforcedSecretLength (in overrides)",
  ],
  [
    "a missing service URL",
    (s) => (s.service = {}),
    "service.url: is required; set SOLVER_SERVICE_URL or service.url in the config file",
  ],
  [
    "a solver id with 0x",
    (s) => (s.solver = { id: "0xabc" }),
    'solver.id: "0xabc" must be hexadecimal without 0x',
  ],
  [
    "a tolerance over 100%",
    (s) => (s.safety = { priceToleranceBps: 20_000 }),
    "safety.priceToleranceBps: 20000 must be at most 10000",
  ],
];

describe("configuration validation", () => {
  it("accepts the fixture as it is", () => {
    expect(problemsFor(() => undefined)).toEqual([]);
  });

  it.each(cases)("names the key for %s", (_name, mutate, expected) => {
    expect(problemsFor(mutate)).toEqual([expected]);
  });

  it("reports every problem of one load together", () => {
    const chosen = [
      "an rpc URL with a wrong scheme",
      "a fractional amount",
      "a port out of range",
      "a wrong bitcoin network",
    ];
    const picked = cases.filter(([name]) => chosen.includes(name));
    const all = problemsFor((s) => {
      for (const [, mutate] of picked) mutate(s);
    });
    expect([...all].sort()).toEqual(picked.map(([, , expected]) => expected).sort());
  });

  it("names environment values by the setting they feed", () => {
    const env = {
      ...TEST_ENV,
      SOLVER_OPS_PORT: "80a",
      SOLVER_POLL_INTERVAL_MS: "0",
      SOLVER_LOG_LEVEL: "verbose",
    };
    expect(problemsFor(() => undefined, env)).toEqual([
      "solver.pollIntervalMs: 0 must be at least 1",
      'ops.port: "80a" must be an integer',
      'log.level: "verbose" must be one of trace, debug, info, warn, error, fatal',
    ]);
  });

  it("rejects malformed keys and app ids without echoing them", () => {
    const badKey = `0x${"f".repeat(64)}`; // above the curve order
    const env = {
      ...TEST_ENV,
      SOLVER_EVM_PRIVATE_KEY: badKey,
      SOLVER_BITCOIN_PRIVATE_KEY: "12345",
      SOLVER_APP_ID: "zz-app",
    };
    const problems = problemsFor(() => undefined, env);
    expect(problems).toEqual([
      "service.appId: must be 64 hexadecimal characters",
      "solver.keys.evm: is not a 32-byte hex private key on secp256k1 (value not shown)",
      "solver.keys.bitcoin: is not a 32-byte hex private key on secp256k1 (value not shown)",
    ]);
    const text = problems.join("\n");
    for (const secret of [badKey, "12345", "zz-app"]) expect(text).not.toContain(secret);
  });

  it("never quotes a 32-byte hex value put in the wrong place", () => {
    const problems = problemsFor((s) => (s.solver = { id: SECRETS.evmKey }));
    expect(problems).toEqual(["solver.id: a 32-byte hex value (not shown) must be hexadecimal without 0x"]);
  });

  it("asks for a missing key by its environment variable", () => {
    const problems = problemsFor(() => undefined, { SOLVER_APP_ID: SECRETS.appId });
    expect(problems).toEqual([
      "solver.keys.evm: is required for the evm chains; set SOLVER_EVM_PRIVATE_KEY or put it in the key file (SOLVER_KEY_FILE)",
      "solver.keys.bitcoin: is required for the bitcoin chains; set SOLVER_BITCOIN_PRIVATE_KEY or put it in the key file (SOLVER_KEY_FILE)",
    ]);
  });

  it("keeps URL credentials out of problem messages", () => {
    const problems = problemsFor((s) => (s.service = { url: `ftp://user:${SECRETS.urlPassword}@host/` }));
    expect(problems).toEqual(['service.url: "ftp://host" is not an http(s) URL']);
  });
});
