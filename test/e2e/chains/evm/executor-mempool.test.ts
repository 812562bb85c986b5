/**
 * EvmExecutor with anvil's automine off: nonces from the journal, stuck transactions bumped, dropped
 * transactions re-broadcast from their raw bytes, repeated broadcasts, and reverted transactions.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseTransaction, type Hex } from "viem";
import type { ActionRequest, SignedTx, TxAttemptRef } from "../../../../src/chains/chain.js";
import { EvmExecutor, NonceUsedError } from "../../../../src/chains/evm/executor.js";
import { EvmNonceManager } from "../../../../src/chains/evm/nonce-manager.js";
import { EvmReader } from "../../../../src/chains/evm/reader.js";
import { mine } from "../../contracts/fixture.js";
import {
  NATIVE_ASSET,
  startEvmFamilyFixture,
  terms,
  userInitiates,
  withSwapId,
  type EvmFamilyFixture,
} from "./evm-family-fixture.js";
import { evmTerms as testTerms, MemoryJournal } from "../../../support/memory-journal.js";
import type { EvmTxTerms } from "../../../../src/chains/evm/tx-terms.js";

let f: EvmFamilyFixture;
let reader: EvmReader;
let journal: MemoryJournal;

function termsOf(tx: Pick<SignedTx, "terms">): EvmTxTerms {
  if (tx.terms.family !== "evm") throw new Error("not an EVM transaction");
  return tx.terms;
}
let executor: EvmExecutor;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_403);
  reader = new EvmReader(f.config);
});

beforeEach(async () => {
  journal = new MemoryJournal();
  executor = new EvmExecutor({ config: f.config, privateKey: f.solverKey, journal });
  await f.fx.testClient.setAutomine(false);
});

afterEach(async () => {
  // Leave an empty pool for the next test.
  await f.fx.testClient.setAutomine(true);
  await mine(f.fx, 1);
});

afterAll(async () => {
  await f?.stop();
});

function fill(amount = 100n): ActionRequest {
  const t = withSwapId(reader, terms(NATIVE_ASSET, f.solver, f.user.address, amount, 20n));
  return { kind: "fill", orderId: `fill-${t.params.swapId.slice(0, 8)}`, params: t.params };
}

function attemptOf(signed: SignedTx): TxAttemptRef {
  journal.record(signed);
  const attempt = journal.attempts.at(-1);
  if (attempt === undefined) throw new Error("journal lost the attempt");
  return attempt;
}

async function chainNonce(): Promise<bigint> {
  return BigInt(await f.fx.pub.getTransactionCount({ address: f.solver, blockTag: "latest" }));
}

describe("EvmExecutor with automine off", () => {
  it("takes the next nonce after the journal's live attempts, and never hands one out twice", async () => {
    const base = await chainNonce();
    journal.record({ chain: "anvil", txHash: "0x01", raw: "0x", nonce: base + 2n, terms: testTerms() });
    journal.record({ chain: "other-chain", txHash: "0x02", raw: "0x", nonce: base + 9n, terms: testTerms() });
    expect(await executor.nextNonce()).toBe(base + 3n);
    const [a, b, c] = await Promise.all([
      executor.build([fill()]),
      executor.build([fill()]),
      executor.build([fill()]),
    ]);
    expect([a?.nonce, b?.nonce, c?.nonce].sort()).toEqual([base + 3n, base + 4n, base + 5n]);
    expect(parseTransaction(a?.raw as Hex).nonce).toBe(Number(a?.nonce));
  });

  it("holds a handed-out nonce until the journal shows it, releases it on failure, and expires it", async () => {
    const base = await chainNonce();
    let nowMs = 1_000;
    const nonces = new EvmNonceManager({
      chain: "anvil",
      address: f.solver,
      client: f.fx.pub,
      journal,
      reservationTtlMs: 5_000,
      now: () => nowMs,
    });
    await expect(nonces.withNextNonce(() => Promise.reject(new Error("signing failed")))).rejects.toThrow(
      "signing failed",
    );
    expect(await nonces.withNextNonce((n) => Promise.resolve(n))).toBe(base);
    expect(await nonces.withNextNonce((n) => Promise.resolve(n))).toBe(base + 1n);
    // A transaction carrying the account's own EIP-7702 authorization holds two nonces.
    expect(await nonces.withNextNonces(2, (n) => Promise.resolve(n))).toBe(base + 2n);
    expect(await nonces.withNextNonce((n) => Promise.resolve(n))).toBe(base + 4n);
    // Never journaled: after the hold expires the nonces are free again rather than a permanent gap.
    nowMs += 5_001;
    expect(await nonces.peek()).toBe(base);
    // A build refused before signing consumes no nonce.
    await expect(executor.build([fill(10n ** 30n)])).rejects.toThrow(
      /simulation of fill on anvil failed: .*insufficient funds/i,
    );
    expect((await executor.build([fill()])).nonce).toBe(base);
  });

  it("bumps a stuck transaction, and only the replacement fits a block the first could not pay for", async () => {
    const action = fill();
    const signed = await executor.build([action]);
    const first = attemptOf(signed);
    await executor.broadcast(signed);
    expect(await executor.txStatus(first, [])).toEqual({ state: "pending" });

    const bumped = await executor.bump(first, [action]);
    if (bumped === null) throw new Error("bump refused below the ceiling");
    const offered = termsOf(signed).maxFeePerGas;
    expect(bumped.nonce).toBe(signed.nonce);
    expect(bumped.txHash).not.toBe(signed.txHash);
    expect(termsOf(bumped).maxFeePerGas).toBeGreaterThanOrEqual((offered * 125n) / 100n);
    expect(termsOf(bumped).gas).toBe(termsOf(signed).gas);
    const second = attemptOf(bumped);
    await executor.broadcast(bumped);

    // A base fee above the first attempt's maxFeePerGas: only the replacement can be included.
    await f.fx.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: offered + offered / 10n });
    await mine(f.fx, 1);
    expect(await executor.txStatus(second, [])).toMatchObject({ state: "confirmed", confirmations: 1 });
    expect(await executor.txStatus(first, [])).toEqual({
      state: "dead",
      reason: expect.stringMatching(
        new RegExp(`^nonce ${first.nonce} is used by another transaction, final at block \\d+$`),
      ),
    });
    expect((await reader.readHtlc(action.params)).locks).toHaveLength(1);
    // The replaced attempt can no longer be sent: its nonce is used by its successor.
    await expect(executor.broadcast(signed)).rejects.toBeInstanceOf(NonceUsedError);
  });

  it("returns null instead of a bump once the fee ceiling is reached", async () => {
    const signed = await executor.build([fill()]);
    const ceilingOf = termsOf(signed).maxFeePerGas;
    const capped = new EvmExecutor({
      config: { ...f.config, maxFeePerGasWei: ceilingOf },
      privateKey: f.solverKey,
      journal,
    });
    expect(await capped.bump(attemptOf(signed), [])).toBeNull();
  });

  it("re-broadcasts a dropped transaction from its raw bytes, under the same hash", async () => {
    const action = fill();
    const signed = await executor.build([action]);
    const attempt = attemptOf(signed);
    await executor.broadcast(signed);
    await f.fx.testClient.dropTransaction({ hash: signed.txHash as Hex });
    expect(await executor.txStatus(attempt, [])).toEqual({ state: "unknown" });

    // After a crash the runner has only the journal: raw and hash.
    await executor.broadcast({ raw: attempt.raw, txHash: attempt.txHash });
    expect(await executor.txStatus(attempt, [])).toEqual({ state: "pending" });
    await mine(f.fx, 1);
    expect(await executor.txStatus(attempt, [])).toMatchObject({ state: "confirmed" });
    expect((await reader.readHtlc(action.params)).locks).toHaveLength(1);
  });

  it("treats broadcasting the same transaction again as success, pending or mined", async () => {
    const signed = await executor.build([fill()]);
    await executor.broadcast(signed);
    await executor.broadcast(signed);
    await mine(f.fx, 1);
    await executor.broadcast(signed);
    expect(await executor.txStatus(attemptOf(signed), [])).toMatchObject({ state: "confirmed" });
    await expect(executor.broadcast({ raw: signed.raw, txHash: `0x${"00".repeat(32)}` })).rejects.toThrow(
      /is not the hash of the given raw/,
    );
  });

  it("reports a transaction that reverted on chain as failed, with the contract's reason", async () => {
    const t = withSwapId(reader, terms(NATIVE_ASSET, f.user.address, f.solver, 100n, 20n));
    await f.fx.testClient.setAutomine(true);
    await userInitiates(f, t.params);
    await f.fx.testClient.setAutomine(false);
    const redeem: ActionRequest = {
      kind: "redeem",
      orderId: "r",
      params: t.params,
      secret: t.secret.slice(2),
    };
    // Both simulate fine while neither is mined; the second one mined reverts.
    const a = await executor.build([redeem]);
    const b = await executor.build([redeem]);
    for (const tx of [a, b]) await executor.broadcast(tx);
    await mine(f.fx, 1);
    expect(await executor.txStatus(attemptOf(a), [])).toMatchObject({ state: "confirmed" });
    const failed = await executor.txStatus(attemptOf(b), []);
    expect(failed).toMatchObject({ state: "failed", reason: expect.stringMatching(/OrderFulfilled\(0x/) });
  });

  it("cancels a pending fill: nothing to self at its nonce, the HTLC never funded, only gas spent", async () => {
    const action = fill(10n ** 15n);
    const signed = await executor.build([action]);
    const first = attemptOf(signed);
    await executor.broadcast(signed);
    const before = await f.fx.pub.getBalance({ address: f.solver });

    const cancel = await executor.cancel(first);
    if (cancel === null) throw new Error("cancel refused below twice the ceiling");
    expect(cancel.nonce).toBe(signed.nonce);
    const parsed = parseTransaction(cancel.raw as Hex);
    expect(parsed.to?.toLowerCase()).toBe(f.solver.toLowerCase());
    expect(parsed).toMatchObject({ gas: 21_000n });
    expect(parsed.value ?? 0n).toBe(0n);
    expect(termsOf(cancel).maxFeePerGas).toBeGreaterThanOrEqual((termsOf(signed).maxFeePerGas * 110n) / 100n);
    const second = attemptOf(cancel);
    await executor.broadcast(cancel);
    await mine(f.fx, 1);

    expect(await executor.txStatus(second, [])).toMatchObject({ state: "confirmed" });
    expect((await reader.readHtlc(action.params)).locks).toEqual([]);
    const receipt = await f.fx.pub.getTransactionReceipt({ hash: cancel.txHash as Hex });
    const after = await f.fx.pub.getBalance({ address: f.solver });
    expect(before - after).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it("may pass the ceiling: up to twice it for a cancel, and up to an urgent redeem's allowance for a bump", async () => {
    const signed = await executor.build([fill()]);
    const ceiling = termsOf(signed).maxFeePerGas;
    const capped = new EvmExecutor({
      config: { ...f.config, maxFeePerGasWei: ceiling },
      privateKey: f.solverKey,
      journal,
    });
    const attempt = attemptOf(signed);
    expect(await capped.bump(attempt, [])).toBeNull();
    const cancel = await capped.cancel(attempt);
    expect(cancel && termsOf(cancel).maxFeePerGas).toBeLessThanOrEqual(2n * ceiling);
    expect(cancel && termsOf(cancel).maxFeePerGas).toBeGreaterThan(ceiling);

    const gas = termsOf(signed).gas;
    const allowance = { maxFee: gas * ceiling * 2n, reason: "source redeem near its deadline" };
    const urgent = await capped.bump(attempt, [], allowance);
    expect(urgent && termsOf(urgent).maxFeePerGas).toBeGreaterThan(ceiling);
    expect(urgent && termsOf(urgent).maxFeePerGas * gas).toBeLessThanOrEqual(allowance.maxFee);
    // Cancels out-pay each other up to twice the ceiling, and no further.
    let last = cancel as SignedTx;
    for (
      let next = await capped.cancel(attemptOf(last));
      next !== null;
      next = await capped.cancel(attemptOf(last))
    ) {
      expect(termsOf(next).maxFeePerGas).toBeGreaterThan(termsOf(last).maxFeePerGas);
      expect(termsOf(next).maxFeePerGas).toBeLessThanOrEqual(2n * ceiling);
      last = next;
    }
    expect(termsOf(last).maxFeePerGas * 110n).toBeGreaterThan(2n * ceiling * 100n);
  });

  it("fills a nonce gap left by a transaction dropped for good, so the ones behind it are mined", async () => {
    const base = await chainNonce();
    const lost = await executor.build([fill()]);
    const behind = await executor.build([fill()]);
    expect([lost.nonce, behind.nonce]).toEqual([base, base + 1n]);
    // The first never reaches the node and its attempt ends; the second waits behind the hole.
    attemptOf(behind);
    await executor.broadcast(behind);
    await mine(f.fx, 1);
    expect(await chainNonce()).toBe(base);

    const fresh = new EvmExecutor({ config: f.config, privateKey: f.solverKey, journal });
    const fillers = await fresh.fillNonceGaps();
    expect(fillers.map((t) => t.nonce)).toEqual([base]);
    expect(parseTransaction(fillers[0]!.raw as Hex)).toMatchObject({ gas: 21_000n });
    for (const filler of fillers) {
      attemptOf(filler);
      await executor.broadcast(filler);
    }
    expect(await fresh.fillNonceGaps()).toEqual([]);
    await mine(f.fx, 1);
    expect(await chainNonce()).toBe(base + 2n);
    expect(await executor.txStatus(attemptOf(behind), [])).toMatchObject({ state: "confirmed" });
  });
});
