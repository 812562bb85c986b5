import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { SECRETS, validSettings } from "./fixture.js";

const dir = mkdtempSync(join(tmpdir(), "solver-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILE_EVM = `0x${"e5".repeat(32)}`;
const FILE_BITCOIN = "f6".repeat(32);

function keyFile(name: string, content: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

function load(env: NodeJS.ProcessEnv) {
  return loadConfig(CHAIN_FAMILIES, {
    overrides: validSettings(),
    env: { SOLVER_APP_ID: SECRETS.appId, ...env },
  });
}

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("key file", () => {
  const good = JSON.stringify({ evm: FILE_EVM, bitcoin: FILE_BITCOIN });

  it("supplies both keys from a file only its owner can read", () => {
    const path = keyFile("owner-only.json", good, 0o600);
    expect(load({ SOLVER_KEY_FILE: path }).solver.keys).toEqual({
      evm: FILE_EVM,
      bitcoin: FILE_BITCOIN,
      solana: "",
      starknet: "",
      sui: "",
    });
  });

  it("accepts a read-only owner file", () => {
    const path = keyFile("read-only.json", good, 0o400);
    expect(load({ SOLVER_KEY_FILE: path }).solver.keys.evm).toBe(FILE_EVM);
  });

  it("lets an environment key win over the file, key by key", () => {
    const path = keyFile("mixed.json", good, 0o600);
    const keys = load({ SOLVER_KEY_FILE: path, SOLVER_EVM_PRIVATE_KEY: SECRETS.evmKey }).solver.keys;
    expect(keys).toEqual({ evm: SECRETS.evmKey, bitcoin: FILE_BITCOIN, solana: "", starknet: "", sui: "" });
  });

  it.each([
    [0o644, "0644"],
    [0o640, "0640"],
    [0o604, "0604"],
    [0o660, "0660"],
  ])("refuses a file with mode %o, naming the fix", (mode, octal) => {
    const path = keyFile(`open-${octal}.json`, good, mode);
    expect(problemsOf({ SOLVER_KEY_FILE: path })).toContain(
      `solver.keyFile: ${path} is readable by group or others (mode ${octal}); restrict it with: chmod 600 ${path}`,
    );
  });

  it("reports a missing file", () => {
    const path = join(dir, "nope.json");
    expect(problemsOf({ SOLVER_KEY_FILE: path })).toContain(`solver.keyFile: ${path} does not exist`);
  });

  it("never echoes the contents of a malformed file", () => {
    const path = keyFile("broken.json", `{"evm": "${FILE_EVM}", `, 0o600);
    const problems = problemsOf({ SOLVER_KEY_FILE: path });
    expect(problems).toContain(
      `solver.keyFile: ${path} is not valid JSON (expected {"evm": "<hex>", "bitcoin": "<hex>", "solana": "<base58>", "starknet": "<hex>", "sui": "suiprivkey…"})`,
    );
    expect(problems.join("\n")).not.toContain(FILE_EVM.slice(2));
  });

  it("rejects unknown entries and invalid keys without showing them", () => {
    const path = keyFile("odd.json", JSON.stringify({ evm: "0x1234", aptos: "abc" }), 0o600);
    const problems = problemsOf({ SOLVER_KEY_FILE: path, SOLVER_BITCOIN_PRIVATE_KEY: SECRETS.bitcoinKey });
    expect(problems).toEqual([
      `solver.keyFile: ${path} has an unknown entry "aptos" (only evm, bitcoin, solana, starknet, sui)`,
      "solver.keys.evm: is not a 32-byte hex private key on secp256k1 (value not shown)",
    ]);
  });
});
