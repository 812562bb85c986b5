import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { bitcoinNetwork } from "../../../../src/chains/bitcoin/network.js";
import { CHAIN_FAMILIES } from "../../../../src/chains/registry.js";
import { base58Decode } from "../../../../src/chains/solana/base58.js";
import { command as keysCommand } from "../../../../src/cli/commands/keys.js";
import { Problems } from "../../../../src/config/errors.js";
import { readKeyFile } from "../../../../src/config/key-file.js";
import { recordingIo } from "../io.js";

async function run(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(["keys", ...args], { io, commands: [keysCommand] });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

/** The key as the loader reads it from the file: no problem, and in the family's stored form. */
function loadedKey(path: string, family: string): string {
  const problems = new Problems();
  const keys = readKeyFile(path, problems, CHAIN_FAMILIES);
  expect(problems.all()).toEqual([]);
  const key = keys[family] ?? "";
  const spec = CHAIN_FAMILIES.find((f) => f.name === family)!;
  expect(spec.key.normalize(key)).toEqual({ value: key });
  return key;
}

describe("solver keys new", () => {
  it("writes a new key per family, mode 600, that the loader reads, and prints its public side only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keys-new-"));
    const publicOf: Record<string, (key: string) => string[]> = {
      evm: (key) => [privateKeyToAccount(key as `0x${string}`).address],
      bitcoin: (key) => {
        const k = BitcoinKey.fromHex(key);
        return [k.xOnlyHex, k.walletPayment(bitcoinNetwork("regtest")).address];
      },
      solana: (key) => [Keypair.fromSecretKey(base58Decode(key)).publicKey.toBase58()],
    };
    for (const family of ["evm", "bitcoin", "solana"]) {
      const out = join(dir, `${family}.json`);
      const { code, out: text } = await run("new", "--family", family, "--out", out);
      expect(code).toBe(0);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const key = loadedKey(out, family);
      expect(text).toMatch(new RegExp(`^new ${family} key written to .* \\(mode 600\\)`));
      for (const visible of publicOf[family]!(key)) expect(text).toContain(visible);
      expect(text.toLowerCase()).not.toContain(key.toLowerCase().replace(/^0x/, ""));
    }
    const again = await run("new", "--family", "evm", "--out", join(dir, "evm2.json"));
    expect(again.code).toBe(0);
    expect(loadedKey(join(dir, "evm2.json"), "evm")).not.toBe(loadedKey(join(dir, "evm.json"), "evm"));
  });

  it("refuses to overwrite a file, an unknown family and a missing --out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keys-new-"));
    const existing = join(dir, "keys.json");
    writeFileSync(existing, '{"evm":"keep"}', { mode: 0o600 });
    const over = await run("new", "--family", "evm", "--out", existing);
    expect(over.code).toBe(1);
    expect(over.err).toContain(`${existing} already exists; keys new never overwrites a file`);
    expect(readFileSync(existing, "utf8")).toBe('{"evm":"keep"}');
    const unknown = await run("new", "--family", "aptos", "--out", join(dir, "s.json"));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--family must be one of evm, bitcoin, solana, starknet, sui, not "aptos"');
    expect((await run("new", "--family", "evm")).err).toContain("keys new needs --out FILE");
  });
});
