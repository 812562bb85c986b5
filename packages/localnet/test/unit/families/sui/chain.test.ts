import { Transaction } from "@mysten/sui/transactions";
import { afterEach, describe, expect, it } from "vitest";
import {
  LocalSuiAccount,
  startLocalSui,
  SUI_RPC_METHODS,
  suiRpc,
  type LocalSui,
} from "../../../../src/families/sui/chain/index.js";
import { gasPaid, ONE_SUI, rpcError, startSetup, SUI, type Setup } from "./helpers.js";

let setup: Setup | undefined;
let other: LocalSui | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  await other?.stop();
  setup = undefined;
  other = undefined;
});

async function transfer(s: Setup, amount: bigint) {
  const tx = new Transaction();
  const [coin] = tx.splitCoins(tx.gas, [amount]);
  tx.transferObjects([coin!], s.bob.address);
  const bytes = await s.alice.build(tx);
  return { bytes, signature: await s.alice.sign(bytes) };
}

describe("the local Sui chain", () => {
  it("answers every method the wire lists, and the SDK resolver's function signatures", () => {
    expect(SUI_RPC_METHODS).toEqual([
      "sui_dryRunTransactionBlock",
      "sui_executeTransactionBlock",
      "sui_getChainIdentifier",
      "sui_getLatestCheckpointSequenceNumber",
      "sui_getNormalizedMoveFunction",
      "sui_getObject",
      "sui_getTransactionBlock",
      "sui_multiGetObjects",
      "suix_getBalance",
      "suix_getCoins",
      "suix_getDynamicFieldObject",
      "suix_getReferenceGasPrice",
      "suix_queryEvents",
    ]);
  });

  it("puts executed transactions into the next checkpoint, on demand or on the interval", async () => {
    const s = (setup = await startSetup());
    const { bytes, signature } = await transfer(s, 5n);
    const executed = await s.alice.executeSigned(bytes, signature);
    expect(executed.checkpoint).toBeUndefined();
    const latest = () => s.alice.rpc<string>("sui_getLatestCheckpointSequenceNumber", []);
    expect(await latest()).toBe("0");
    expect(s.sui.makeCheckpoint()).toBe(1n);
    expect((await s.alice.waitFor(executed.digest, true)).checkpoint).toBe("1");
    s.sui.makeCheckpoint();
    expect(await latest()).toBe("2");

    other = await startLocalSui({ checkpointMs: 20 });
    const keys = other.createAccount();
    other.mintSui(keys.address, ONE_SUI);
    const account = new LocalSuiAccount(other.url, keys.secretKey, other.packageId);
    const tx = new Transaction();
    tx.transferObjects([tx.splitCoins(tx.gas, [1n])[0]!], s.bob.address);
    const sent = await account.execute(tx);
    const checkpointed = await account.waitFor(sent.digest, true);
    expect(BigInt(checkpointed.checkpoint!)).toBeGreaterThan(0n);
  });

  it("answers the same signed bytes again with the same transaction and executes nothing", async () => {
    const s = (setup = await startSetup());
    const bobBefore = s.sui.balanceOf(SUI, s.bob.address);
    const aliceBefore = s.sui.balanceOf(SUI, s.alice.address);
    const { bytes, signature } = await transfer(s, 7n);
    const first = await s.alice.executeSigned(bytes, signature);
    const again = await s.alice.executeSigned(bytes, signature);
    expect(again.digest).toBe(first.digest);
    expect(again.effects).toEqual(first.effects);
    expect(s.sui.balanceOf(SUI, s.bob.address)).toBe(bobBefore + 7n);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(aliceBefore - 7n - gasPaid(first));
  });

  it("dry-runs without changing anything, and names an unknown transaction", async () => {
    const s = (setup = await startSetup());
    const { bytes } = await transfer(s, 9n);
    const before = s.sui.balanceOf(SUI, s.alice.address);
    const dry = await s.alice.rpc<{ effects: { status: { status: string } } }>("sui_dryRunTransactionBlock", [
      Buffer.from(bytes).toString("base64"),
    ]);
    expect(dry.effects.status.status).toBe("success");
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(before);
    const unknown = "11111111111111111111111111111111";
    const error = await rpcError(s.alice.rpc("sui_getTransactionBlock", [unknown, {}]));
    expect(error.code).toBe(-32602);
    expect(error.nodeMessage).toContain(unknown);
  });

  it("refuses bytes that are not a BCS TransactionData with -32602", async () => {
    const s = (setup = await startSetup());
    const error = await rpcError(
      suiRpc(s.sui.url, "sui_executeTransactionBlock", [
        Buffer.from([1, 2, 3]).toString("base64"),
        ["AA=="],
        {},
      ]),
    );
    expect(error.code).toBe(-32602);
    expect(error.nodeMessage).toContain("TransactionData");
  });

  it("pages coins with a cursor and reports balances and objects as the SDK's types say", async () => {
    const s = (setup = await startSetup());
    for (let i = 0; i < 60; i++) s.sui.mintSui(s.carol.address, 1n);
    const first = await s.carol.rpc<{ data: unknown[]; nextCursor: string; hasNextPage: boolean }>(
      "suix_getCoins",
      [s.carol.address, SUI, null, 50],
    );
    expect(first.data).toHaveLength(50);
    expect(first.hasNextPage).toBe(true);
    const second = await s.carol.rpc<{ data: unknown[]; hasNextPage: boolean }>("suix_getCoins", [
      s.carol.address,
      SUI,
      first.nextCursor,
      50,
    ]);
    expect(second.data).toHaveLength(11);
    expect(second.hasNextPage).toBe(false);
    expect(await s.carol.coins()).toHaveLength(61);
    const balance = await s.carol.rpc("suix_getBalance", [s.carol.address]);
    expect(balance).toEqual({
      coinType: SUI,
      coinObjectCount: 61,
      totalBalance: (10n * ONE_SUI + 60n).toString(),
      lockedBalance: {},
    });
    const registry = await s.carol.rpc("sui_getObject", [
      s.registry.registryId,
      { showType: true, showOwner: true },
    ]);
    expect(registry).toMatchObject({
      data: {
        type: `${s.sui.packageId}::AtomicSwap::OrdersRegistry<0x2::sui::SUI>`,
        owner: { Shared: { initial_shared_version: "1" } },
      },
    });
    expect(await s.carol.rpc("sui_getObject", [`0x${"ab".repeat(32)}`, {}])).toEqual({
      error: { code: "notExists", object_id: `0x${"ab".repeat(32)}` },
    });
  });

  it("answers for its packages as a node does for a published package, and for no other id", async () => {
    setup = await startSetup();
    const s = setup;
    const options = { showType: true, showOwner: true };
    for (const id of [s.sui.packageId, s.sui.lookalikePackageId]) {
      const answer = (await s.carol.rpc("sui_getObject", [id, options])) as {
        data: { objectId: string; version: string; type: string; owner: unknown };
      };
      expect(answer.data).toMatchObject({ objectId: id, version: "1", type: "package", owner: "Immutable" });
    }
    const elsewhere = `0x${"cd".repeat(32)}`;
    expect(await s.carol.rpc("sui_getObject", [elsewhere, options])).toEqual({
      error: { code: "notExists", object_id: elsewhere },
    });
  });
});
