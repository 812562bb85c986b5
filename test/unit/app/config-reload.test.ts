import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigReloader } from "../../../src/app/config-reload.js";
import { restartOnlyChanges } from "../../../src/app/reloadable.js";
import { loadConfig } from "../../../src/config/load.js";
import type { SolverConfig } from "../../../src/config/types.js";
import type { QuoteItem } from "../../../src/orderbook/types.js";
import { createPricing, type Pricing } from "../../../src/pricing/pricing.js";
import type { QuoteRefusal } from "../../../src/pricing/refusal.js";
import { CapturedLog } from "../../support/localnet.js";
import { TEST_ENV, validSettings } from "../config/fixture.js";
import { MemoryBalances } from "../pricing/fixtures.js";
import { freeNetworkIo } from "../../support/network-fees.js";

type Settings = Record<string, unknown>;
const BTC = "bitcoin_regtest:btc";
const WBTC = "ethereum_localnet:wbtc";
const REQUEST = { from: BTC, to: WBTC, fromAmount: 10_000_000n };

function writeProfile(file: string, mutate: (s: Settings) => void = () => undefined): void {
  const settings = validSettings();
  mutate(settings);
  writeFileSync(file, JSON.stringify(settings));
}

const strategy = (s: Settings) => (s.strategies as Settings[])[0]!;

interface Running {
  file: string;
  pricing: Pricing;
  reloader: ConfigReloader;
  log: CapturedLog;
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.reloader.stop();
    await r.pricing.stop();
  }
});

async function start(watchIntervalMs = 25): Promise<Running> {
  const file = join(mkdtempSync(join(tmpdir(), "reload-")), "solver.json");
  writeProfile(file);
  const load = (): SolverConfig => loadConfig(CHAIN_FAMILIES, { file, env: TEST_ENV });
  const initial = load();
  const pricing = createPricing(initial, {
    balances: new MemoryBalances(new Map([[WBTC, 10n ** 12n]])),
    committed: () => 0n,
    ...freeNetworkIo(initial.chains),
  });
  await pricing.start();
  const log = new CapturedLog();
  const reloader = new ConfigReloader({
    file,
    initial,
    load,
    apply: (next) => pricing.reload(next),
    logger: log.logger,
    watchIntervalMs,
  });
  reloader.start();
  const r = { file, pricing, reloader, log };
  running.push(r);
  return r;
}

async function quote(pricing: Pricing): Promise<QuoteItem | QuoteRefusal> {
  return pricing.quote(REQUEST);
}

async function waitForLog(log: CapturedLog, msg: string, count: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = log.lines.filter((l) => l.msg === msg);
    if (lines.length >= count) return lines[count - 1] as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`no log "${msg}" (#${count}): ${log.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("configuration reload", () => {
  it("a configuration reloaded on SIGHUP changes the next quote", async () => {
    const { file, pricing, log } = await start(60_000);
    // 0.1 BTC at 60000 into WBTC at 60000.5, 30 bps fee.
    expect(await quote(pricing)).toMatchObject({ fee: 30, destination: { amount: "9969916" } });
    writeProfile(file, (s) => (strategy(s).feeBps = 100));
    process.kill(process.pid, "SIGHUP");
    expect(await waitForLog(log, "configuration reloaded", 1)).toMatchObject({
      trigger: "SIGHUP",
      changed: ["strategies"],
    });
    expect(await quote(pricing)).toMatchObject({ fee: 100, destination: { amount: "9899917" } });
  });

  it("a change of the file switches a pair off, and back on", async () => {
    const { file, pricing, log } = await start();
    writeProfile(file, (s) => (strategy(s).enabled = false));
    await waitForLog(log, "configuration reloaded", 1);
    expect(await quote(pricing)).toMatchObject({ ok: false, reason: "pair_disabled" });
    writeProfile(file, (s) => (strategy(s).enabled = true));
    expect(await waitForLog(log, "configuration reloaded", 2)).toMatchObject({ trigger: "file change" });
    expect(await quote(pricing)).toMatchObject({ fee: 30 });
  });

  it("a broken configuration is refused with its key named, and the old one stays in force", async () => {
    const { file, pricing, reloader, log } = await start(60_000);
    writeProfile(file, (s) => {
      strategy(s).feeBps = 20_000;
      (s.fixedPrices as Settings)[BTC] = "cheap";
    });
    const outcome = await reloader.reload("request");
    expect(outcome).toEqual({
      applied: false,
      problems: [
        'fixedPrices["bitcoin_regtest:btc"]: "cheap" must be a decimal string such as "1.25"',
        "strategies[0].feeBps: 20000 must be at most 10000",
      ],
    });
    expect(
      await waitForLog(log, "configuration reload refused; the configuration in force stays", 1),
    ).toMatchObject({
      level: 50,
      problems: outcome.applied ? [] : outcome.problems,
    });
    expect(await quote(pricing)).toMatchObject({ fee: 30, destination: { amount: "9969916" } });
    expect(reloader.config.strategies[0]?.feeBps).toBe(30);
  });

  it("applies the pricing parts and reports, without applying, settings that need a restart", async () => {
    const { file, reloader, log } = await start(60_000);
    writeProfile(file, (s) => {
      (s.solver as Settings).pollIntervalMs = 777;
      (s.limits as Settings).maxInFlightUsdCents = "5000";
    });
    expect(await reloader.reload("request")).toEqual({
      applied: true,
      changed: ["limits"],
      needRestart: ["solver.pollIntervalMs"],
    });
    expect(reloader.config.limits.maxInFlightUsdCents).toBe(5000n);
    expect(reloader.config.solver.pollIntervalMs).not.toBe(777);
    expect(
      await waitForLog(log, "these settings changed but take effect only after a restart", 1),
    ).toMatchObject({
      keys: ["solver.pollIntervalMs"],
    });
  });

  it("names every changed key a reload does not take on, never its value, and keeps the value in force", async () => {
    const { file, reloader, log } = await start(60_000);
    const before = reloader.config;
    const newKey = "n3wK3yN3wK3yN3wK3yN3w9";
    writeProfile(file, (s) => {
      const [evm, bitcoin] = s.chains as Settings[];
      (evm!.rpcUrls as string[])[1] = `https://rpc.example.org/v2/${newKey}`;
      bitcoin!.rpcPassword = "an0ther-s3cret";
      s.safety = { urgentRedeemFeeBps: 1234, allowUnenforcedSecretLength: true };
      (s.service as Settings).url = "https://solver:n3w-pw@api.example.org";
    });
    const outcome = await reloader.reload("request");
    const keys = [
      "service.url",
      "chains[0].rpcUrls[1]",
      "chains[1].rpcPassword",
      "safety.urgentRedeemFeeBps",
      "safety.allowUnenforcedSecretLength",
    ];
    expect(outcome).toEqual({ applied: true, changed: [], needRestart: keys });
    const warning = await waitForLog(log, "these settings changed but take effect only after a restart", 1);
    expect(warning).toMatchObject({ level: 40, trigger: "request", keys });
    for (const secret of [newKey, "an0ther-s3cret", "n3w-pw"]) expect(log.text()).not.toContain(secret);
    expect(reloader.config.chains).toEqual(before.chains);
    expect(reloader.config.service).toEqual(before.service);
    expect(reloader.config.safety).toEqual(before.safety);
  });
});

describe("restartOnlyChanges", () => {
  it("names keys, never values (the solver section holds private keys)", () => {
    const a = loadConfig(CHAIN_FAMILIES, { overrides: validSettings(), env: TEST_ENV });
    const b = loadConfig(CHAIN_FAMILIES, {
      overrides: validSettings(),
      env: { ...TEST_ENV, SOLVER_EVM_PRIVATE_KEY: `0x${"a2".repeat(32)}` },
    });
    expect(restartOnlyChanges(a, b)).toEqual(["solver.keys.evm"]);
  });
});
