/** EvmExecutor against a real anvil: every action kind for token and native coin, and refused builds. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../../src/chains/chain.js";
import {
  InsufficientAllowanceError,
  OrderAlreadyInitiatedError,
  TxWouldRevertError,
} from "../../../../src/chains/evm/errors.js";
import { EvmExecutor } from "../../../../src/chains/evm/executor.js";
import { EvmReader } from "../../../../src/chains/evm/reader.js";
import { mine, send } from "../../contracts/fixture.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import {
  actionOf,
  NATIVE_ASSET,
  runActions,
  TOKEN_ASSET,
  startEvmFamilyFixture,
  terms,
  userInitiates,
  withSwapId,
  type EvmFamilyFixture,
} from "./evm-family-fixture.js";
import { MemoryJournal } from "../../../support/memory-journal.js";

let f: EvmFamilyFixture;
let reader: EvmReader;
let journal: MemoryJournal;
let executor: EvmExecutor;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_402);
  reader = new EvmReader(f.config);
  journal = new MemoryJournal();
  executor = new EvmExecutor({ config: f.config, privateKey: f.solverKey, journal });
});

afterAll(async () => {
  await f?.stop();
});

const run = (actions: ActionRequest[]) => runActions(executor, journal, actions);

function fillTerms(asset: string, amount = 500n, timelock = 20n): ReturnType<typeof terms> {
  return withSwapId(reader, terms(asset, f.solver, f.user.address, amount, timelock));
}

function sourceTerms(asset: string, amount = 700n): ReturnType<typeof terms> {
  return withSwapId(reader, terms(asset, f.user.address, f.solver, amount, 50n));
}

async function pendingNonce(): Promise<number> {
  return f.fx.pub.getTransactionCount({ address: f.solver, blockTag: "pending" });
}

describe("EvmExecutor actions", () => {
  it("exposes the solver address and balances of token and native coin", async () => {
    expect(executor.address).toBe(f.solver);
    expect(executor.maxBatch).toBe(1);
    expect(await executor.balance(TOKEN_ASSET)).toBe(10n ** 15n);
    expect(await executor.balance(NATIVE_ASSET)).toBe(10n ** 21n);
  });

  it("refuses a token fill before its allowance is granted at start, then grants it once", async () => {
    const { params } = fillTerms(TOKEN_ASSET);
    const before = await pendingNonce();
    await expect(executor.build([actionOf("fill", params)])).rejects.toThrow(InsufficientAllowanceError);
    expect(await pendingNonce()).toBe(before);
    await executor.prepare([TOKEN_ASSET]);
    expect(await pendingNonce()).toBe(before + 1);
    await executor.prepare([TOKEN_ASSET, NATIVE_ASSET]);
    expect(await pendingNonce()).toBe(before + 1);
  });

  for (const asset of [TOKEN_ASSET, NATIVE_ASSET]) {
    it(`fills ${asset}, and the user redeems the fill with the secret`, async () => {
      const { params, secret } = fillTerms(asset);
      const balanceBefore = await executor.balance(asset);
      const { signed, status } = await run([actionOf("fill", params)]);
      expect(signed.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(signed.terms.family === "evm" && signed.terms.gas).toBeGreaterThan(21_000n);
      expect(status).toMatchObject({ state: "confirmed", confirmations: 1 });
      const state = await reader.readHtlc(params);
      expect(state).toMatchObject({
        locks: [{ value: 500n, spend: null }],
        onChain: { initiator: f.solver },
      });
      if (asset === TOKEN_ASSET) expect(await executor.balance(asset)).toBe(balanceBefore - 500n);

      await expect(executor.build([actionOf("fill", params)])).rejects.toThrow(OrderAlreadyInitiatedError);
      await send(f.fx, f.user, {
        address: asset === TOKEN_ASSET ? f.tokenHtlc : f.nativeHtlc,
        abi: htlcAbi,
        functionName: "redeem",
        args: [`0x${params.swapId}`, secret],
      });
      expect((await reader.readHtlc(params)).locks[0]?.spend?.kind).toBe("redeem");
    });

    it(`redeems a ${asset} source with the secret`, async () => {
      const { params, secret } = sourceTerms(asset);
      await userInitiates(f, params);
      const balanceBefore = await executor.balance(asset);
      const { status } = await run([actionOf("redeem", params, secret.slice(2))]);
      expect(status.state).toBe("confirmed");
      const redeemed = await reader.readHtlc(params);
      expect(redeemed.secret).toBe(secret.slice(2));
      expect(redeemed.locks.map((l) => l.spend?.kind)).toEqual(["redeem"]);
      if (asset === TOKEN_ASSET) expect(await executor.balance(asset)).toBe(balanceBefore + 700n);
    });

    it(`instantly refunds a declined ${asset} source to the user`, async () => {
      const { params } = sourceTerms(asset);
      await userInitiates(f, params);
      const { status } = await run([actionOf("instant_refund", params)]);
      expect(status.state).toBe("confirmed");
      expect((await reader.readHtlc(params)).locks.map((l) => l.spend?.kind)).toEqual(["refund"]);
    });

    it(`refunds an expired ${asset} fill, and refuses to refund it early`, async () => {
      const { params } = fillTerms(asset, 300n, 3n);
      await run([actionOf("fill", params)]);
      const before = await pendingNonce();
      const early = executor.build([actionOf("refund", params)]);
      await expect(early).rejects.toThrow(TxWouldRevertError);
      await expect(early).rejects.toMatchObject({ errorName: "OrderNotExpired", action: "refund" });
      expect(await pendingNonce()).toBe(before);
      await mine(f.fx, 3);
      const { status } = await run([actionOf("refund", params)]);
      expect(status.state).toBe("confirmed");
      expect((await reader.readHtlc(params)).locks.map((l) => l.spend?.kind)).toEqual(["refund"]);
    });
  }

  it("refuses a redeem with a wrong secret, signing and sending nothing", async () => {
    const { params } = sourceTerms(TOKEN_ASSET);
    await userInitiates(f, params);
    const wrong = fillTerms(TOKEN_ASSET).secret.slice(2);
    const before = await pendingNonce();
    const attempt = executor.build([actionOf("redeem", params, wrong)]);
    await expect(attempt).rejects.toThrow(TxWouldRevertError);
    await expect(attempt).rejects.toMatchObject({ errorName: "IncorrectSecret" });
    await expect(attempt).rejects.toThrow(/redeem would revert: IncorrectSecret\(0x[0-9a-f]{64}\)/);
    expect(await pendingNonce()).toBe(before);
  });

  it("refuses a fill whose stated swap id or initiator is not what the chain would record", async () => {
    const { params } = fillTerms(NATIVE_ASSET);
    await expect(executor.build([actionOf("fill", { ...params, swapId: "00".repeat(32) })])).rejects.toThrow(
      /differs from/,
    );
    await expect(
      executor.build([actionOf("fill", { ...params, initiator: f.user.address })]),
    ).rejects.toThrow(/is not the solver/);
    await expect(executor.build([])).rejects.toThrow(/no action to build/);
  });
});
