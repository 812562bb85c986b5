import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli.js";
import { SECRETS, TEST_ENV, validSettings } from "../config/fixture.js";
import { recordingIo } from "./io.js";

const dir = mkdtempSync(join(tmpdir(), "solver-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function profile(name: string, settings: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

const validFile = profile("valid.json", validSettings());

describe("solver config check", () => {
  it("prints the effective configuration with secrets redacted, exit 0", async () => {
    const io = recordingIo({
      ...TEST_ENV,
      SOLVER_CHAIN_BITCOIN_REGTEST_RPC_URL: `http://u:${SECRETS.rpcPassword}@127.0.0.1:1`,
    });
    expect(await runCli(["config", "check", "--config", validFile], { io })).toBe(0);
    const printed = JSON.parse(io.out.join("")) as {
      solver: { id: string; keys: unknown };
      chains: { name: string; rpcUrls?: string[] }[];
      strategies: { maxAmount: string }[];
      quote: { auth: { secret: string } };
    };
    expect(printed.solver).toMatchObject({
      id: "0a1b2c",
      keys: { evm: "[redacted]", bitcoin: "[redacted]" },
    });
    expect(printed.chains.map((c) => c.name)).toEqual(["ethereum_localnet", "bitcoin_regtest"]);
    expect(printed.chains[1]?.rpcUrls).toEqual(["http://127.0.0.1:1"]);
    expect(printed.strategies[0]?.maxAmount).toBe("100000000");
    expect(printed.quote.auth.secret).toBe("[redacted]");
    expect(io.err).toEqual([`configuration is valid (${validFile}): 2 chains, 1 strategies`]);
    const everything = [...io.out, ...io.err].join("\n");
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret.replace(/^0x/, ""));
  });

  it("with --online, names each endpoint and the service that do not answer, exit 2, without secrets", async () => {
    const io = recordingIo({
      ...TEST_ENV,
      SOLVER_SERVICE_URL: "http://127.0.0.1:1",
      SOLVER_CHAIN_ETHEREUM_LOCALNET_RPC_URLS: `http://127.0.0.1:1/${SECRETS.apiKey}`,
      SOLVER_CHAIN_BITCOIN_REGTEST_RPC_URL: `http://u:${SECRETS.rpcPassword}@127.0.0.1:1`,
    });
    expect(await runCli(["config", "check", "--config", validFile, "--online"], { io })).toBe(2);
    const err = io.err.join("\n");
    expect(err).toMatch(/service\.url: GET \/v2\/chains failed/);
    expect(err).toMatch(/chains\[0\]\.rpcUrls\[0\]: does not answer eth_chainId/);
    expect(err).toMatch(/chains\[1\]\.rpcUrls\[0\]: does not answer getblockchaininfo/);
    for (const secret of Object.values(SECRETS)) expect(err).not.toContain(secret.replace(/^0x/, ""));
  }, 30_000);

  it("takes the file from SOLVER_CONFIG when --config is absent", async () => {
    const io = recordingIo({ ...TEST_ENV, SOLVER_CONFIG: validFile });
    expect(await runCli(["config", "check"], { io })).toBe(0);
  });

  it("lists every problem and exits 2, without echoing secrets", async () => {
    const settings = validSettings();
    settings.ops = { port: 99999 };
    settings.log = { level: "chatty" };
    const file = profile("broken.json", settings);
    const io = recordingIo({
      ...TEST_ENV,
      SOLVER_BITCOIN_PRIVATE_KEY: "nothex",
      SOLVER_APP_ID: "not-an-app-id",
    });
    expect(await runCli(["config", "check", "-c", file], { io })).toBe(2);
    expect(io.out).toEqual([]);
    const text = io.err.join("\n");
    expect(text).toContain("invalid configuration (4 problems):");
    expect(text).toContain("  - ops.port: 99999 must be at most 65535");
    expect(text).toContain('  - log.level: "chatty" must be one of trace, debug, info, warn, error, fatal');
    expect(text).toContain("  - service.appId: must be 64 hexadecimal characters");
    expect(text).toContain(
      "  - solver.keys.bitcoin: is not a 32-byte hex private key on secp256k1 (value not shown)",
    );
    expect(text).not.toContain("nothex");
    expect(text).not.toContain("not-an-app-id");
  });

  it("needs an action and rejects unknown ones, exit 2", async () => {
    const none = recordingIo(TEST_ENV);
    expect(await runCli(["config"], { io: none })).toBe(2);
    expect(none.err[0]).toMatch(
      /^solver config: missing action: check or schema\n\nUsage: solver config check/,
    );
    const wrong = recordingIo(TEST_ENV);
    expect(await runCli(["config", "fix"], { io: wrong })).toBe(2);
    expect(wrong.err[0]).toMatch(/^solver config: unknown action "fix"/);
  });

  it("has --help", async () => {
    const io = recordingIo();
    expect(await runCli(["config", "--help"], { io })).toBe(0);
    expect(io.out[0]).toMatch(/^Usage: solver config check \[--config FILE\]/);
  });

  it("lists the schema with environment variables, hiding secret defaults", async () => {
    const io = recordingIo();
    expect(await runCli(["config", "schema"], { io })).toBe(0);
    const text = io.out.join("\n");
    expect(text).toMatch(/ops\.port\s+SOLVER_OPS_PORT\s+7070/);
    expect(text).toMatch(/solver\.keys\.evm\s+SOLVER_EVM_PRIVATE_KEY\s+\(secret\)/);
  });
});
