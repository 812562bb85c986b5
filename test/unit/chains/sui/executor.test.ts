import { verifyTransactionSignature } from "@mysten/sui/verify";
import { Transaction } from "@mysten/sui/transactions";
import { describe, expect, it } from "vitest";
import type { ActionRequest, HtlcParams, TxAttemptRef } from "../../../../src/chains/chain.js";
import { RpcShapeError } from "../../../../src/chains/rpc/rpc-shape-error.js";
import { AlreadyOnChainError, RefusedForGoodError } from "../../../../src/chains/seam-errors.js";
import { SUI_COIN_TYPE } from "../../../../src/chains/sui/address.js";
import { computeSuiSwapId } from "../../../../src/chains/sui/order-id.js";
import { signedOfRaw } from "../../../../src/chains/sui/signed.js";
import type { SuiTxTerms } from "../../../../src/chains/sui/tx-terms.js";
import {
  digest,
  FakeJournal,
  FakeSuiNode,
  familyOn,
  nodeError,
  objectId,
  PACKAGE,
  REGISTRY,
  SECRET,
  SECRET_HASH,
  SOLVER,
  USER,
} from "./fake-node.js";

const USDC = `0x${"d5".repeat(32)}::usdc::USDC`;
const USDC_REGISTRY = `0x${"de".repeat(32)}`;

function params(
  initiator: string,
  redeemer: string,
  asset = "sui_test:sui",
  registry = REGISTRY,
): HtlcParams {
  const terms = {
    initiator,
    redeemer,
    secretHash: SECRET_HASH,
    timelock: 3_600_000n,
    amount: 2_000_000_000n,
  };
  return { chain: "sui_test", asset, swapId: computeSuiSwapId({ ...terms, registry }), ...terms };
}

const fill = (orderId = "order-1", p = params(SOLVER, USER)): ActionRequest => ({
  kind: "fill",
  orderId,
  params: p,
});

function gasCoin(node: FakeSuiNode, balance: bigint, coinType = SUI_COIN_TYPE) {
  const coin = { coinType, coinObjectId: objectId(), version: 10n, digest: digest(), balance };
  node.coins.push(coin);
  node.objectVersions.set(coin.coinObjectId, coin.version);
  return coin;
}

function attemptOf(signed: { txHash: string; raw: string; terms: unknown }): TxAttemptRef {
  return {
    id: 1,
    chain: "sui_test",
    txHash: signed.txHash,
    raw: signed.raw,
    nonce: null,
    terms: signed.terms as SuiTxTerms,
    createdAtMs: 0,
  };
}

const withUsdc = {
  assets: [
    {
      id: "sui_test:sui",
      chain: "sui_test",
      symbol: "sui",
      decimals: 9,
      tokenAddress: SUI_COIN_TYPE,
      htlcAddress: REGISTRY,
    },
    {
      id: "sui_test:usdc",
      chain: "sui_test",
      symbol: "usdc",
      decimals: 6,
      tokenAddress: USDC,
      htlcAddress: USDC_REGISTRY,
    },
  ],
  registryInitialSharedVersions: { usdc: 77n },
};

describe("Sui executor: fills", () => {
  it("splits the amount from the gas coin, initiates, and signs at the dry run's budget plus margin", async () => {
    const node = new FakeSuiNode();
    const coin = gasCoin(node, 10_000_000_000n);
    const family = familyOn(node);
    const signed = await family.executor.build([fill()]);
    const { txBytes, signature, digest: txDigest } = signedOfRaw(signed.raw);
    expect(txDigest).toBe(signed.txHash);
    const data = Transaction.from(txBytes).getData();
    expect(data.sender).toBe(SOLVER);
    expect(data.gasData.price).toBe("1000");
    // (computation 1 000 000 + storage 3 000 000) × 1.2
    expect(data.gasData.budget).toBe("4800000");
    expect(data.gasData.payment?.map((p) => p.objectId)).toEqual([coin.coinObjectId]);
    expect(data.commands[0]?.$kind).toBe("SplitCoins");
    expect(data.commands[0]?.SplitCoins?.coin).toEqual({ $kind: "GasCoin", GasCoin: true });
    expect(data.commands[1]?.MoveCall).toMatchObject({
      package: PACKAGE,
      module: "AtomicSwap",
      function: "initiate",
    });
    const registry = data.inputs[1]?.UnresolvedObject ?? data.inputs[1]?.Object?.SharedObject;
    expect(registry).toMatchObject({ objectId: REGISTRY, initialSharedVersion: "42", mutable: true });
    const signer = await verifyTransactionSignature(txBytes, signature);
    expect(signer.toSuiAddress()).toBe(SOLVER);
    expect(signed.terms).toEqual({
      family: "sui",
      gasPrice: 1000n,
      gasBudget: 4_800_000n,
      ownedInputs: [`${coin.coinObjectId}@10`],
      coinOut: 2_000_000_000n,
      coinType: SUI_COIN_TYPE,
    });
  });

  it("merges the wallet's coins of another type and splits the amount from them", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const small = gasCoin(node, 1_500_000_000n, USDC);
    const large = gasCoin(node, 1_000_000_000n, USDC);
    gasCoin(node, 0n, USDC);
    const family = familyOn(node, undefined, withUsdc);
    const signed = await family.executor.build([
      fill("o", params(SOLVER, USER, "sui_test:usdc", USDC_REGISTRY)),
    ]);
    const data = Transaction.from(signedOfRaw(signed.raw).txBytes).getData();
    expect(data.commands.map((c) => c.$kind)).toEqual(["MergeCoins", "SplitCoins", "MoveCall"]);
    expect(data.commands[2]?.MoveCall?.typeArguments).toEqual([USDC]);
    const owned = (signed.terms as SuiTxTerms).ownedInputs.map((i) => i.split("@")[0]);
    expect(owned).toEqual(expect.arrayContaining([small.coinObjectId, large.coinObjectId]));
    expect((signed.terms as SuiTxTerms).coinType).toBe(USDC);
  });

  it("never puts one owned object in two transactions in flight", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 5_000_000_000n);
    gasCoin(node, 5_000_000_000n);
    const journal = new FakeJournal();
    const family = familyOn(node, journal);
    const [a, b] = await Promise.all([
      family.executor.build([fill("order-1")]),
      family.executor.build([
        fill("order-2", {
          ...params(SOLVER, USER),
          amount: 2_000_000_001n,
          swapId: computeSuiSwapId({ ...params(SOLVER, USER), amount: 2_000_000_001n, registry: REGISTRY }),
        }),
      ]),
    ]);
    const ownedA = (a.terms as SuiTxTerms).ownedInputs;
    const ownedB = (b.terms as SuiTxTerms).ownedInputs;
    expect(ownedA.filter((input) => ownedB.includes(input))).toEqual([]);
    // Both coins are held now: a third fill has none free.
    await expect(family.executor.build([fill("order-3")])).rejects.toThrow(/free coins .* short/);
    // After a restart, the journal's live attempts hold them as well.
    journal.live = [attemptOf(a), attemptOf(b)];
    const restarted = familyOn(node, journal);
    await expect(restarted.executor.build([fill("order-3")])).rejects.toThrow(/free coins .* short/);
  });

  it("refuses a reference gas price above the ceiling, dry-running nothing", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    node.referenceGasPrice = 5_001n;
    await expect(familyOn(node).executor.build([fill()])).rejects.toThrow(
      /reference gas price 5001 MIST passes the ceiling/,
    );
    expect(node.paramsOf("sui_dryRunTransactionBlock")).toEqual([]);
  });

  it("refuses a budget above the ceiling", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    node.dryRunGas = { computationCost: 40_000_000n, storageCost: 5_000_000n, storageRebate: 0n };
    await expect(familyOn(node).executor.build([fill()])).rejects.toThrow(
      /passes the budget ceiling of 50000000 MIST/,
    );
  });

  it("refuses an action whose dry run aborts, naming the abort", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    node.dryRunError = `MoveAbort(MoveLocation { module: ModuleId { address: ${PACKAGE.slice(2)}, name: Identifier("AtomicSwap") }, function: 1, instruction: 40, function_name: Some("initiate") }, 9) in command 1`;
    await expect(familyOn(node).executor.build([fill()])).rejects.toThrow(
      /would fail on sui_test: AtomicSwap aborted with code 9 \(timelock out of range\) in command 1/,
    );
    expect(node.paramsOf("sui_executeTransactionBlock")).toEqual([]);
  });

  it("does not fill an order the registry holds from the solver", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const p = params(SOLVER, USER);
    node.orders.set(p.swapId, {
      initiator: SOLVER,
      redeemer: USER,
      amount: p.amount,
      initiatedAt: 1n,
      timelock: p.timelock,
      previousTransaction: digest(),
    });
    await expect(familyOn(node).executor.build([fill()])).rejects.toThrow(AlreadyOnChainError);
  });

  it("refuses a stated swap id that is not the computed one", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const lying = { ...params(SOLVER, USER), swapId: "ab".repeat(32) };
    await expect(familyOn(node).executor.build([fill("o", lying)])).rejects.toThrow(/differs from/);
  });
});

describe("Sui executor: redeem and instant refund", () => {
  function sourceNode() {
    const node = new FakeSuiNode();
    // One coin each: the redeem holds its gas coin while it is in flight.
    gasCoin(node, 10_000_000_000n);
    gasCoin(node, 10_000_000_000n);
    const p = params(USER, SOLVER);
    node.orders.set(p.swapId, {
      initiator: USER,
      redeemer: SOLVER,
      amount: p.amount,
      initiatedAt: 1n,
      timelock: p.timelock,
      previousTransaction: digest(),
    });
    return { node, p };
  }

  it("redeems with the secret and cancels with instant_refund as the redeemer", async () => {
    const { node, p } = sourceNode();
    const family = familyOn(node);
    const redeem = await family.executor.build([
      { kind: "redeem", orderId: "o", params: p, secret: SECRET.toString("hex") },
    ]);
    const call = Transaction.from(signedOfRaw(redeem.raw).txBytes).getData().commands[0]?.MoveCall;
    expect(call?.function).toBe("redeem");
    const cancel = await family.executor.build([{ kind: "instant_refund", orderId: "o", params: p }]);
    expect(Transaction.from(signedOfRaw(cancel.raw).txBytes).getData().commands[0]?.MoveCall?.function).toBe(
      "instant_refund",
    );
  });

  it("refuses a secret of another hash", async () => {
    const { node, p } = sourceNode();
    const action: ActionRequest = { kind: "redeem", orderId: "o", params: p, secret: "07".repeat(31) + "08" };
    await expect(familyOn(node).executor.build([action])).rejects.toThrow(/does not hash/);
  });
});

describe("Sui executor: sending and following", () => {
  it("resubmits the journaled bytes as they are, and counts a known digest as sent", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const family = familyOn(node);
    const signed = await family.executor.build([fill()]);
    const { txBytes, signature } = signedOfRaw(signed.raw);
    node.on("sui_executeTransactionBlock", () => node.txResponse(signed.txHash, {}));
    await family.executor.broadcast(signed);
    // After a restart: the same bytes and signature go out again; the node's refusal of a known digest is sent.
    node.on("sui_executeTransactionBlock", () => {
      throw nodeError(-32002, `Object ${objectId()} is locked by transaction ${signed.txHash}`);
    });
    node.transactions.set(signed.txHash, {});
    await familyOn(node).executor.broadcast({ raw: signed.raw, txHash: signed.txHash });
    for (const [bytes, signatures] of node.paramsOf("sui_executeTransactionBlock")) {
      expect(bytes).toBe(Buffer.from(txBytes).toString("base64"));
      expect(signatures).toEqual([signature]);
    }
  });

  it("reports a refusal no resend can change as refused for good", async () => {
    const node = new FakeSuiNode();
    const coin = gasCoin(node, 10_000_000_000n);
    const signed = await familyOn(node).executor.build([fill()]);
    node.on("sui_executeTransactionBlock", () => {
      throw nodeError(
        -32002,
        `Object ${coin.coinObjectId} version 10 is not available for consumption, current version 11`,
      );
    });
    await expect(familyOn(node).executor.broadcast(signed)).rejects.toThrow(RefusedForGoodError);
  });

  it("follows an attempt: unknown while its inputs stand, dead once one moved, then its checkpoint", async () => {
    const node = new FakeSuiNode();
    const coin = gasCoin(node, 10_000_000_000n);
    const family = familyOn(node);
    const attempt = attemptOf(await family.executor.build([fill()]));
    expect(await family.executor.txStatus(attempt)).toEqual({ state: "unknown" });
    node.objectVersions.set(coin.coinObjectId, 11n);
    // Moved by the attempt itself, on a node that has its effects but not yet its record: not dead.
    node.objectWriters.set(coin.coinObjectId, attempt.txHash);
    expect(await family.executor.txStatus(attempt)).toEqual({ state: "pending" });
    node.objectWriters.set(coin.coinObjectId, digest());
    expect(await family.executor.txStatus(attempt)).toMatchObject({ state: "dead" });
    node.transactions.set(attempt.txHash, { checkpoint: null });
    expect(await family.executor.txStatus(attempt)).toEqual({ state: "pending" });
    node.transactions.set(attempt.txHash, { checkpoint: 4_998n, timestampMs: 123n });
    expect(await family.executor.txStatus(attempt)).toEqual({
      state: "confirmed",
      blockHeight: 123n,
      confirmations: 3,
      feePaid: 2_500n,
    });
    node.transactions.set(attempt.txHash, {
      checkpoint: 4_998n,
      timestampMs: 123n,
      status: "failure",
      error: "InsufficientGas",
    });
    expect(await family.executor.txStatus(attempt)).toMatchObject({
      state: "failed",
      reason: "InsufficientGas",
    });
  });

  it("names the method and field of a node that lies about coins", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const honest = node.handlers.suix_getCoins!;
    node.on("suix_getCoins", (p) => {
      const page = honest(p) as { data: { balance: string }[] };
      page.data[0]!.balance = "-5";
      return page;
    });
    const build = familyOn(node).executor.build([fill()]);
    await expect(build).rejects.toThrow(RpcShapeError);
    await expect(familyOn(node).executor.build([fill()])).rejects.toThrow(
      /suix_getCoins .*data\.0\.balance is not a decimal u64/,
    );
  });

  it("takes what live attempts the chain has not executed will spend off the balance", async () => {
    const node = new FakeSuiNode();
    gasCoin(node, 10_000_000_000n);
    const journal = new FakeJournal();
    const family = familyOn(node, journal);
    journal.live = [attemptOf(await family.executor.build([fill()]))];
    expect(await family.executor.balance("sui_test:sui")).toBe(10_000_000_000n - 2_000_000_000n - 4_800_000n);
  });
});
