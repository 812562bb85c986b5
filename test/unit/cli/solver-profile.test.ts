import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { solverProfile, writeKeyFile, writeSolverProfile } from "../../../src/cli/solver-profile.js";
import { loadConfig } from "../../../src/config/load.js";
import type { SolverConfig } from "../../../src/config/types.js";
import { SECRETS, TEST_ENV, validSettings } from "../config/fixture.js";

/** A loaded config with every kind of setting: EVM and Bitcoin chains, strategies, limits, secrets. */
function loadedProfileConfig(): SolverConfig {
  const file = join(mkdtempSync(join(tmpdir(), "profile-src-")), "profile.json");
  writeFileSync(file, JSON.stringify(validSettings()));
  return loadConfig(CHAIN_FAMILIES, { file, env: TEST_ENV });
}

describe("solver profile", () => {
  it("writes a config that loads back equal, keys from a key file, never in the profile", () => {
    const config = loadedProfileConfig();
    const dir = mkdtempSync(join(tmpdir(), "profile-"));
    const keyFile = join(dir, "keys.json");
    writeKeyFile(keyFile, config.solver.keys);
    writeSolverProfile(join(dir, "solver.json"), config, { keyFile });
    const text = readFileSync(join(dir, "solver.json"), "utf8");
    expect(text).not.toContain(SECRETS.evmKey.slice(2));
    expect(text).not.toContain(SECRETS.bitcoinKey);
    expect(statSync(join(dir, "solver.json")).mode & 0o777).toBe(0o600);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(loadConfig(CHAIN_FAMILIES, { file: join(dir, "solver.json"), env: {} })).toEqual(config);
  });

  it("without a key file leaves the keys to the environment", () => {
    const config = loadedProfileConfig();
    const dir = mkdtempSync(join(tmpdir(), "profile-"));
    writeSolverProfile(join(dir, "solver.json"), config);
    expect((solverProfile(config).solver as Record<string, unknown>).keys).toBeUndefined();
    const env = { SOLVER_EVM_PRIVATE_KEY: SECRETS.evmKey, SOLVER_BITCOIN_PRIVATE_KEY: SECRETS.bitcoinKey };
    expect(loadConfig(CHAIN_FAMILIES, { file: join(dir, "solver.json"), env })).toEqual(config);
  });
});
