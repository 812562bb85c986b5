import { describe, expect, it } from "vitest";
import type { ActionRequest, TxAttemptRef } from "../../../src/chains/chain.js";
import { DryRunError, dryRunChain } from "../../../src/chains/dry-run.js";
import type { PreparedChain } from "../../../src/chains/family-module.js";
import { CapturedLog } from "../../support/localnet.js";
import { FakeChain } from "../solver/fake-chain.js";
import { MemoryJournal } from "../../support/memory-journal.js";

const fill: ActionRequest = {
  kind: "fill",
  orderId: "0f".repeat(32),
  params: {
    chain: "arbitrum_localnet",
    asset: "arbitrum_localnet:usdc",
    swapId: "ab".repeat(32),
    initiator: "0xa1",
    redeemer: "0xb2",
    secretHash: "cd".repeat(32),
    timelock: 600n,
    amount: 990_000n,
  },
};

const attempt: TxAttemptRef = {
  id: 1,
  chain: "arbitrum_localnet",
  txHash: `0x${"77".repeat(32)}`,
  raw: "0x02",
  nonce: 4n,
  terms: { family: "evm", maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gas: 21_000n },
  createdAtMs: 0,
};

function chains() {
  const journal = new MemoryJournal();
  const fake = new FakeChain("arbitrum_localnet", "evm", () => journal);
  fake.held.set("arbitrum_localnet:usdc", 5_000_000n);
  let prepared = 0;
  const real: PreparedChain = {
    ...fake.solverChain("0xsolver", [{ symbol: "usdc", tokenAddress: "0x01", decimals: 6 }]),
    prepare: () => {
      prepared++;
      return Promise.resolve();
    },
  };
  const log = new CapturedLog();
  return { fake, dry: dryRunChain(real, log.logger), log, prepared: () => prepared };
}

describe("a dry-run chain", () => {
  it("logs each money movement and makes none: no build, broadcast, replacement, filler or start-up", async () => {
    const { fake, dry, log, prepared } = chains();
    await expect(dry.executor.build([fill])).rejects.toBeInstanceOf(DryRunError);
    await expect(dry.executor.broadcast({ raw: "0x02", txHash: attempt.txHash })).rejects.toBeInstanceOf(
      DryRunError,
    );
    expect(await dry.executor.bump(attempt, [fill])).toBeNull();
    expect(await dry.executor.cancel(attempt)).toBeNull();
    expect(await dry.executor.fillNonceGaps?.()).toEqual([]);
    await dry.prepare();
    expect(fake.built).toEqual([]);
    expect(fake.broadcasts).toEqual([]);
    expect(prepared()).toBe(0);
    expect(log.lines.map((l) => l.msg)).toEqual([
      "dry run: would sign and send a fill",
      "dry run: would send the journaled transaction again",
      "dry run: would replace the pending transaction with a better-paying one",
      "dry run: would cancel the pending transaction",
      "dry run: would do the chain's start-up transactions (token approvals, delegation) where due",
    ]);
    expect(log.lines[0]).toMatchObject({
      kind: "fill",
      orderId: fill.orderId,
      dryRun: true,
      chain: "arbitrum_localnet",
    });
  });

  it("reads as the real chain does", async () => {
    const { fake, dry } = chains();
    expect(await dry.executor.balance("arbitrum_localnet:usdc")).toBe(5_000_000n);
    expect(dry.reader).toBe(fake);
    expect(dry.executor.maxBatch).toBe(fake.maxBatch);
    expect(await dry.executor.txStatus(attempt, [])).toEqual({ state: "pending" });
  });
});
