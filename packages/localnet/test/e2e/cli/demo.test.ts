/**
 * `solver demo --exit` as a user runs it (`npm start` without --exit): the localnet comes up, fourteen
 * swaps (between EVM chains, and with Bitcoin, Solana, Starknet and Sui) complete through the service's
 * API, everything stops, exit 0.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "htlc-solver/cli.js";
import type { OrderView } from "htlc-solver/ops/journal-views.js";
import { recordingIo } from "../../../../../test/unit/cli/io.js";
import { SolverProcess } from "../../../../../test/e2e/cli/support/solver-process.js";

const TIMEOUT_MS = 300_000;

describe("solver demo --exit", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "demo-")), ".localnet");
  let demo: SolverProcess | undefined;

  afterAll(async () => {
    await demo?.kill();
  });

  it(
    "completes the fourteen swaps, with Bitcoin, Solana, Starknet and Sui, prints their progress, stops everything and exits 0",
    async () => {
      demo = new SolverProcess(["demo", "--exit", "--dir", dir]);
      const timeout = new Promise<"timeout">((resolve) =>
        setTimeout(() => resolve("timeout"), TIMEOUT_MS - 20_000),
      );
      const exit = await Promise.race([demo.exited, timeout]);
      const out = demo.stdout.join("\n");
      expect(exit, `${out}\n${demo.stderr.join("\n")}`).toEqual({ code: 0, signal: null });

      expect(out).toContain("14 of 14 swaps completed");
      // The prices it quotes from: each asset's feed on its chain and the three local exchange tickers.
      expect(out).toContain("prices the solver quotes from");
      expect(out).toMatch(
        /^ {2}bitcoin_regtest:btc\s+60000\s+chainlink ethereum_localnet 0x[0-9a-fA-F]{40} 60000, binance BTCUSDT 60000, coinbase BTC-USD 60000, kraken XBTUSD 60000$/m,
      );
      expect(out.match(/^ {6}completed in \d+\.\d s \(user initiate to source redeem\)$/gm)).toHaveLength(14);
      for (const label of ["user initiate", "solver fill", "destination redeem", "solver redeem"]) {
        // EVM hashes carry 0x; Bitcoin ones do not, and a funding reads `txid:0` in the mempool and
        // `txid:height` once mined, so it may be printed twice; Solana signatures are base58; Starknet
        // hashes are felts, 0x without leading zeros; Sui digests are base58 of 32 bytes.
        const hash =
          "((0x)?[0-9a-f]{64}(:\\d+)?|[1-9A-HJ-NP-Za-km-z]{86,88}|0x[1-9a-f][0-9a-f]{0,63}|[1-9A-HJ-NP-Za-km-z]{43,44})";
        const lines = out.match(new RegExp(`  ${label} +\\w+ +${hash}$`, "gm")) ?? [];
        expect(new Set(lines.map((line) => line.trim().split(/\s+/).pop()!.split(":")[0])).size).toBe(14);
      }
      expect(out).toMatch(
        /swap 1 of 14: 250 usdc on ethereum_localnet -> [\d.]+ usdc on arbitrum_localnet \(approve, then an EIP-712/,
      );
      expect(out).toMatch(/swap 2 of 14: 0\.1 eth on ethereum_localnet -> [\d.]+ usdc on arbitrum_localnet/);
      expect(out).toMatch(/swap 3 of 14: 100 usdc on arbitrum_localnet -> [\d.]+ usdc on ethereum_localnet/);
      expect(out).toMatch(/swap 4 of 14: 0\.01 btc on bitcoin_regtest -> [\d.]+ wbtc on arbitrum_localnet/);
      expect(out).toMatch(/swap 5 of 14: 0\.01 wbtc on ethereum_localnet -> [\d.]+ btc on bitcoin_regtest/);
      expect(out).toMatch(/swap 6 of 14: 2 sol on solana_localnet -> [\d.]+ eth on arbitrum_localnet/);
      expect(out).toMatch(/swap 7 of 14: 150 usdc on ethereum_localnet -> [\d.]+ usdc on solana_localnet/);
      expect(out).toMatch(/swap 8 of 14: 0\.005 btc on bitcoin_regtest -> [\d.]+ sol on solana_localnet/);
      expect(out).toMatch(
        /swap 9 of 14: 0\.01 wbtc on starknet_localnet -> [\d.]+ wbtc on arbitrum_localnet \(approve, then a SNIP-12/,
      );
      expect(out).toMatch(
        /swap 10 of 14: 0\.01 wbtc on ethereum_localnet -> [\d.]+ wbtc on starknet_localnet/,
      );
      expect(out).toMatch(/swap 11 of 14: 0\.007 btc on bitcoin_regtest -> [\d.]+ wbtc on starknet_localnet/);
      expect(out).toMatch(
        /swap 12 of 14: 0\.006 wbtc on starknet_localnet -> [\d.]+ btc on bitcoin_regtest \(approve and initiate/,
      );
      expect(out).toMatch(
        /swap 13 of 14: 50 sui on sui_localnet -> [\d.]+ btc on bitcoin_regtest \(the user signs and sends/,
      );
      expect(out).toMatch(/swap 14 of 14: 150 usdc on arbitrum_localnet -> [\d.]+ sui on sui_localnet/);
      expect(demo.stdout.filter((line) => line.startsWith("{"))).toEqual([]);
      expect(out.trimEnd().endsWith("stopped")).toBe(true);

      // The logs went to the file, as JSON lines.
      const log = readFileSync(join(dir, "solver.log"), "utf8").trim().split("\n");
      expect(log.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain("solver started");

      // Every chain the summary named is down.
      const rpcUrls = [...out.matchAll(/\(chain id \d+\) (http:\/\/\S+)/g)].map((m) => m[1]!);
      expect(rpcUrls).toHaveLength(2);
      rpcUrls.push(out.match(/\(bitcoin regtest\) (http:\/\/\S+)/)![1]!);
      rpcUrls.push(out.match(/\(solana\) (http:\/\/\S+)/)![1]!);
      rpcUrls.push(out.match(/\(starknet SN_LOCALNET\) (http:\/\/\S+)/)![1]!);
      rpcUrls.push(out.match(/\(sui\) (http:\/\/\S+)/)![1]!);
      for (const url of rpcUrls) await expect(fetch(url, { method: "POST" })).rejects.toThrow();

      // The profile it wrote reads the journal: every order, each filled and redeemed.
      expect(existsSync(join(dir, "solver.json"))).toBe(true);
      const io = recordingIo({});
      expect(await runCli(["orders", "--config", join(dir, "solver.json"), "--json"], { io })).toBe(0);
      const orders = JSON.parse(io.out.join("")) as OrderView[];
      expect(orders).toHaveLength(14);
      for (const order of orders) {
        expect(order.actions.map((a) => [a.kind, a.status])).toEqual([
          ["fill", "confirmed"],
          ["redeem", "confirmed"],
        ]);
      }
    },
    TIMEOUT_MS,
  );
});
