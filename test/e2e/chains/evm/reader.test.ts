/** EvmReader against a real anvil and the real HTLC contracts: ids and every order state. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, getAbiItem, http, parseEventLogs } from "viem";
import { UnknownEvmAssetError } from "../../../../src/chains/evm/assets.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import { createEvmFamily } from "../../../../src/chains/evm/index.js";
import { EvmReader } from "../../../../src/chains/evm/reader.js";
import { lockDepth } from "../../../../src/chains/htlc-locks.js";
import { freePort } from "../../../../src/util/free-port.js";
import { MemoryJournal } from "../../../support/memory-journal.js";
import { mine, send } from "../../contracts/fixture.js";
import {
  NATIVE_ASSET,
  TOKEN_ASSET,
  startEvmFamilyFixture,
  terms,
  userInitiates,
  withSwapId,
  type EvmFamilyFixture,
} from "./evm-family-fixture.js";

let f: EvmFamilyFixture;
let reader: EvmReader;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_401);
  reader = new EvmReader(f.config);
});

afterAll(async () => {
  await f?.stop();
});

function sourceTerms(asset: string, timelock = 50n): ReturnType<typeof terms> {
  return withSwapId(reader, terms(asset, f.user.address, f.solver, 1_000n, timelock));
}

describe("EvmReader", () => {
  it("computes the swap id the contract stores and emits, hex without 0x", async () => {
    for (const asset of [TOKEN_ASSET, NATIVE_ASSET]) {
      const { params } = sourceTerms(asset);
      expect(params.swapId).toMatch(/^[0-9a-f]{64}$/);
      await userInitiates(f, params);
      const logs = await f.fx.pub.getLogs({
        address: asset === TOKEN_ASSET ? f.tokenHtlc : f.nativeHtlc,
        event: getAbiItem({ abi: htlcAbi, name: "Initiated" }),
        args: { secretHash: `0x${params.secretHash}` },
        fromBlock: 0n,
      });
      expect(logs.map((l) => l.args.orderID)).toEqual([`0x${params.swapId}`]);
      const stored = await reader.readOrder(asset, params.swapId);
      expect(stored.initiator).toBe(f.user.address);
      expect(stored.amount).toBe(1_000n);
    }
  });

  it("reads an absent order as no lock at all", async () => {
    const { params } = sourceTerms(TOKEN_ASSET);
    expect(await reader.readHtlc(params)).toEqual({ locks: [], onChain: null, secret: null });
  });

  it("reads an initiated order as one lock with its stored fields and refund height", async () => {
    const { params } = sourceTerms(NATIVE_ASSET, 30n);
    await userInitiates(f, params);
    const initiatedAt = await reader.tipHeight();
    const state = await reader.readHtlc(params);
    expect(state).toEqual({
      locks: [
        {
          id: params.swapId,
          fundingTx: null,
          value: 1_000n,
          height: initiatedAt,
          refundableAtHeight: initiatedAt + 31n,
          worthSpending: true,
          spend: null,
        },
      ],
      onChain: { initiator: f.user.address, redeemer: f.solver, timelock: 30n, amount: 1_000n },
      secret: null,
      // The contract takes an order id once: the id is held for good.
      occupied: true,
    });
    await mine(f.fx, 4);
    const lock = (await reader.readHtlc(params)).locks[0]!;
    expect(lockDepth(lock, await reader.tipHeight())).toBe(5);
  });

  it("reads a redeemed order with its secret, and finds the secret by secret hash", async () => {
    const { params, secret } = sourceTerms(TOKEN_ASSET);
    await userInitiates(f, params);
    const from = await reader.tipHeight();
    await mine(f.fx, 3);
    const receipt = await send(f.fx, f.fx.carol, {
      address: f.tokenHtlc,
      abi: htlcAbi,
      functionName: "redeem",
      args: [`0x${params.swapId}`, secret],
    });
    expect(parseEventLogs({ abi: htlcAbi, logs: receipt.logs, eventName: "Redeemed" })).toHaveLength(1);
    const state = await reader.readHtlc(params);
    expect(state.secret).toBe(secret.slice(2));
    expect(state.locks).toHaveLength(1);
    expect(state.locks[0]?.spend).toEqual({
      kind: "redeem",
      txid: receipt.transactionHash,
      height: receipt.blockNumber,
    });

    const tip = await reader.tipHeight();
    const found = await reader.findRedeemedSecret(TOKEN_ASSET, params.secretHash, from, tip);
    expect(found).toEqual({
      orderId: params.swapId,
      secret: secret.slice(2),
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
    });
    // Sliced scans find it too, and a range before the redeem finds nothing.
    expect((await reader.findRedeemedSecret(TOKEN_ASSET, `0x${params.secretHash}`, 0n, tip))?.secret).toBe(
      secret.slice(2),
    );
    expect(
      await reader.findRedeemedSecret(TOKEN_ASSET, params.secretHash, 0n, receipt.blockNumber - 1n),
    ).toBeNull();
  });

  it("reads a redeem's logs once, then from memory; a refund every time", async () => {
    const methods: string[] = [];
    const counted = new EvmReader(
      f.config,
      createPublicClient({
        transport: http(f.config.rpcUrls[0], {
          onFetchRequest: async (request) => {
            const body = (await request.clone().json()) as { method: string } | { method: string }[];
            for (const call of Array.isArray(body) ? body : [body]) methods.push(call.method);
          },
        }),
      }),
    );
    const redeemed = sourceTerms(TOKEN_ASSET);
    await userInitiates(f, redeemed.params);
    await send(f.fx, f.fx.carol, {
      address: f.tokenHtlc,
      abi: htlcAbi,
      functionName: "redeem",
      args: [`0x${redeemed.params.swapId}`, redeemed.secret],
    });
    const first = await counted.readHtlc(redeemed.params);
    const again = await counted.readHtlc(redeemed.params);
    expect(again).toEqual(first);
    expect(again.secret).toBe(redeemed.secret.slice(2));
    expect(methods.filter((m) => m === "eth_getLogs")).toHaveLength(1);

    const refunded = sourceTerms(NATIVE_ASSET, 1n);
    await userInitiates(f, refunded.params);
    await mine(f.fx, 2);
    await send(f.fx, f.user, {
      address: f.nativeHtlc,
      abi: htlcAbi,
      functionName: "refund",
      args: [`0x${refunded.params.swapId}`],
    });
    methods.length = 0;
    await counted.readHtlc(refunded.params);
    await counted.readHtlc(refunded.params);
    expect(methods.filter((m) => m === "eth_getLogs")).toHaveLength(2);
  });

  it("lists the orders locked, redeemed or refunded in a block range in one request", async () => {
    await mine(f.fx, 1);
    const quiet = await reader.tipHeight();
    const from = quiet + 1n;
    const token = sourceTerms(TOKEN_ASSET);
    const native = sourceTerms(NATIVE_ASSET);
    await userInitiates(f, token.params);
    await userInitiates(f, native.params);
    const initiated = await reader.tipHeight();
    await send(f.fx, f.fx.carol, {
      address: f.tokenHtlc,
      abi: htlcAbi,
      functionName: "redeem",
      args: [`0x${token.params.swapId}`, token.secret],
    });
    const tip = await reader.tipHeight();
    expect((await reader.changedSwapIds(from, tip)).sort()).toEqual(
      [token.params.swapId, native.params.swapId].sort(),
    );
    // The redeem's block alone names the token order only; a block with no HTLC event names none.
    expect(await reader.changedSwapIds(initiated + 1n, tip)).toEqual([token.params.swapId]);
    expect(await reader.changedSwapIds(quiet, quiet)).toEqual([]);
  });

  it("reads a refunded order as refunded, without a secret", async () => {
    const { params } = sourceTerms(NATIVE_ASSET, 2n);
    await userInitiates(f, params);
    await mine(f.fx, 2);
    await send(f.fx, f.user, {
      address: f.nativeHtlc,
      abi: htlcAbi,
      functionName: "refund",
      args: [`0x${params.swapId}`],
    });
    const state = await reader.readHtlc(params);
    expect(state.secret).toBeNull();
    expect(state.locks.map((l) => l.spend?.kind)).toEqual(["refund"]);
  });

  it("reads through the next RPC URL when the first does not answer", async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const family = createEvmFamily({
      config: { ...f.config, rpcUrls: [dead, f.fx.anvil.rpcUrl] },
      privateKey: f.solverKey,
      journal: new MemoryJournal(),
    });
    expect(await family.reader.tipHeight()).toBe(await reader.tipHeight());
    expect(await family.executor.balance(TOKEN_ASSET)).toBeGreaterThan(0n);
  });

  it("names the asset it does not know", () => {
    const { params } = sourceTerms(TOKEN_ASSET);
    expect(() => reader.computeSwapId({ ...params, asset: "anvil:DOGE" })).toThrow(UnknownEvmAssetError);
    expect(() => reader.computeSwapId({ ...params, asset: "anvil:DOGE" })).toThrow(/anvil:DOGE/);
  });
});
