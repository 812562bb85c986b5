/**
 * The EIP-7702 batch executor on a real anvil (Prague): an account that delegates to it makes many calls
 * in one transaction of its own, each as itself; nobody else can make it call anything, directly, through
 * a contract it calls, or with its signed authorization.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  concat,
  encodeFunctionData,
  parseEther,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import {
  batchExecutorAbi,
  decodeExecute,
  executeData,
  type ValuedCall,
} from "../../../src/chains/evm/batch/batch-executor-abi.js";
import { erc20Abi, htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import {
  deployBatchExecutor,
  deployHtlc,
  deployNativeHtlc,
  deployTestSmartWallet,
  deployTestToken,
} from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { newSecret, send, startChainFixture, type Actor, type ChainFixture } from "./fixture.js";
import { orderIdOf, readOrder } from "./htlc-helpers.js";

const CHAIN_ID = 62_377;
const MINTED = 10n ** 12n;

let fx: ChainFixture;
let executor: Address;
let token: Address;
let tokenHtlc: Address;
let nativeHtlc: Address;
let tokenAbi: Abi;

/** The actor's account delegates to `to` with an authorization it signs and sends itself. */
async function delegate(actor: Actor, to: Address): Promise<void> {
  const authorization = await actor.wallet.signAuthorization({
    account: actor.account,
    contractAddress: to,
    executor: "self",
  });
  const hash = await actor.wallet.sendTransaction({
    account: actor.account,
    chain: actor.wallet.chain,
    authorizationList: [authorization],
    to: actor.address,
    data: "0x",
  });
  const receipt = await fx.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

/** Sends `calls` from `from` to `account`'s execute; returns the receipt (fixed gas: it may revert). */
async function execute(from: Actor, account: Address, calls: ValuedCall[]): Promise<TransactionReceipt> {
  const hash = await from.wallet.sendTransaction({
    account: from.account,
    chain: from.wallet.chain,
    to: account,
    data: executeData(calls),
    gas: 2_000_000n,
  });
  return fx.pub.waitForTransactionReceipt({ hash });
}

function initiateCall(
  htlc: Address,
  redeemer: Address,
  amount: bigint,
  secretHash: Hex,
  value = 0n,
): ValuedCall {
  return {
    target: htlc,
    value,
    data: encodeFunctionData({
      abi: htlcAbi,
      functionName: "initiate",
      args: [redeemer, 20n, amount, secretHash],
    }),
  };
}

function transferCall(to: Address, amount: bigint): ValuedCall {
  return {
    target: token,
    value: 0n,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }),
  };
}

const tokenBalance = (address: Address): Promise<bigint> =>
  fx.pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address] });

beforeAll(async () => {
  fx = await startChainFixture(CHAIN_ID);
  tokenAbi = loadArtifact("TestToken").abi;
  executor = await deployBatchExecutor(fx.deployer.wallet, fx.pub);
  token = await deployTestToken(fx.deployer.wallet, fx.pub, { name: "T", symbol: "T", decimals: 6 });
  tokenHtlc = await deployHtlc(fx.deployer.wallet, fx.pub, token);
  nativeHtlc = await deployNativeHtlc(fx.deployer.wallet, fx.pub);
  for (const actor of [fx.alice, fx.mallory]) {
    await send(fx, fx.deployer, {
      address: token,
      abi: tokenAbi,
      functionName: "mint",
      args: [actor.address, MINTED],
    });
  }
  await send(fx, fx.alice, {
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [tokenHtlc, MINTED],
  });
  await delegate(fx.alice, executor);
});

afterAll(async () => {
  await fx?.stop();
});

describe("BatchExecutor under EIP-7702", () => {
  it("leaves the account delegated to it (the 0xef0100 designator)", async () => {
    const code = await fx.pub.getCode({ address: fx.alice.address });
    expect(code?.toLowerCase()).toBe(concat(["0xef0100", executor]).toLowerCase());
  });

  it("initiates many orders in one transaction, each with the account as initiator and funder", async () => {
    const a = newSecret();
    const b = newSecret();
    const amount = 1_000n;
    const native = parseEther("0.01");
    const tokenBefore = await tokenBalance(fx.alice.address);
    const receipt = await execute(fx.alice, fx.alice.address, [
      initiateCall(tokenHtlc, fx.bob.address, amount, a.secretHash),
      initiateCall(nativeHtlc, fx.bob.address, native, b.secretHash, native),
    ]);
    expect(receipt.status).toBe("success");
    const terms = { initiator: fx.alice.address, redeemer: fx.bob.address, timelock: 20n };
    const tokenOrder = await readOrder(
      fx,
      tokenHtlc,
      orderIdOf(fx, tokenHtlc, { ...terms, amount, secretHash: a.secretHash }),
    );
    const nativeOrder = await readOrder(
      fx,
      nativeHtlc,
      orderIdOf(fx, nativeHtlc, { ...terms, amount: native, secretHash: b.secretHash }),
    );
    expect(tokenOrder.initiator).toBe(fx.alice.address);
    expect(tokenOrder.initiatedAt).toBe(receipt.blockNumber);
    expect(nativeOrder.initiator).toBe(fx.alice.address);
    expect(await tokenBalance(fx.alice.address)).toBe(tokenBefore - amount);
    expect(await fx.pub.getBalance({ address: nativeHtlc })).toBe(native);
  });

  it("lets one call fail alone: the others land and the result names the failure", async () => {
    const good = newSecret();
    const duplicate = newSecret();
    const first = initiateCall(tokenHtlc, fx.bob.address, 7n, duplicate.secretHash);
    expect((await execute(fx.alice, fx.alice.address, [first])).status).toBe("success");
    const calls = [first, initiateCall(tokenHtlc, fx.bob.address, 9n, good.secretHash)];
    const simulated = await fx.pub.call({
      account: fx.alice.address,
      to: fx.alice.address,
      data: executeData(calls),
    });
    const results = decodeExecute(simulated.data ?? "0x");
    expect(results.map((r) => r.success)).toEqual([false, true]);
    // Required to succeed, the failing call undoes the whole batch instead.
    await expect(
      fx.pub.call({ account: fx.alice.address, to: fx.alice.address, data: executeData(calls, false) }),
    ).rejects.toThrow(/CallFailed|revert/);
    const receipt = await execute(fx.alice, fx.alice.address, calls);
    expect(receipt.status).toBe("success");
    const stored = await readOrder(
      fx,
      tokenHtlc,
      orderIdOf(fx, tokenHtlc, {
        initiator: fx.alice.address,
        redeemer: fx.bob.address,
        timelock: 20n,
        amount: 9n,
        secretHash: good.secretHash,
      }),
    );
    expect(stored.initiatedAt).toBe(receipt.blockNumber);
  });

  it("refuses anyone but the account itself: a stranger cannot move its tokens", async () => {
    const before = await tokenBalance(fx.alice.address);
    const receipt = await execute(fx.mallory, fx.alice.address, [transferCall(fx.mallory.address, before)]);
    expect(receipt.status).toBe("reverted");
    await expect(
      fx.pub.simulateContract({
        account: fx.mallory.account,
        address: fx.alice.address,
        abi: batchExecutorAbi,
        functionName: "execute",
        args: [[{ ...transferCall(fx.mallory.address, before), allowFailure: true }]],
      }),
    ).rejects.toThrow(/NotSelf/);
    expect(await tokenBalance(fx.alice.address)).toBe(before);
  });

  it("refuses a contract the batch calls when it calls back into the account", async () => {
    // A contract wallet that alice owns and calls in her batch; it calls alice's execute in turn.
    const wallet = await deployTestSmartWallet(fx.deployer.wallet, fx.pub, fx.alice.address);
    const before = await tokenBalance(fx.alice.address);
    const reentry = encodeFunctionData({
      abi: loadArtifact("TestSmartWallet").abi,
      functionName: "execute",
      args: [fx.alice.address, 0n, executeData([transferCall(fx.mallory.address, before)])],
    });
    const calls: ValuedCall[] = [{ target: wallet, value: 0n, data: reentry }];
    const simulated = await fx.pub.call({
      account: fx.alice.address,
      to: fx.alice.address,
      data: executeData(calls),
    });
    expect(decodeExecute(simulated.data ?? "0x").map((r) => r.success)).toEqual([false]);
    expect((await execute(fx.alice, fx.alice.address, calls)).status).toBe("success");
    expect(await tokenBalance(fx.alice.address)).toBe(before);
    expect(await tokenBalance(fx.mallory.address)).toBe(MINTED);
  });

  it("takes no call but execute and a plain payment: an unknown function reverts, coin is received", async () => {
    const unknown = await fx.mallory.wallet.sendTransaction({
      account: fx.mallory.account,
      chain: fx.mallory.wallet.chain,
      to: fx.alice.address,
      data: "0xdeadbeef",
      gas: 100_000n,
    });
    expect((await fx.pub.waitForTransactionReceipt({ hash: unknown })).status).toBe("reverted");
    const before = await fx.pub.getBalance({ address: fx.alice.address });
    await fx.mallory.wallet
      .sendTransaction({
        account: fx.mallory.account,
        chain: fx.mallory.wallet.chain,
        to: fx.alice.address,
        value: 5n,
      })
      .then((hash) => fx.pub.waitForTransactionReceipt({ hash }));
    expect(await fx.pub.getBalance({ address: fx.alice.address })).toBe(before + 5n);
  });

  it("receives an HTLC's payout to the delegated account (the native HTLC pays with a plain call)", async () => {
    // Alice redeems an order made out to her: the NativeHTLC pays her delegated account.
    const { secret, secretHash } = newSecret();
    const amount = parseEther("0.02");
    await send(fx, fx.mallory, {
      address: nativeHtlc,
      abi: htlcAbi,
      functionName: "initiate",
      args: [fx.alice.address, 20n, amount, secretHash],
      value: amount,
    });
    const orderId = orderIdOf(fx, nativeHtlc, {
      initiator: fx.mallory.address,
      redeemer: fx.alice.address,
      timelock: 20n,
      amount,
      secretHash,
    });
    const before = await fx.pub.getBalance({ address: fx.alice.address });
    const receipt = await send(fx, fx.bob, {
      address: nativeHtlc,
      abi: htlcAbi,
      functionName: "redeem",
      args: [orderId, secret],
    });
    expect(receipt.status).toBe("success");
    expect(await fx.pub.getBalance({ address: fx.alice.address })).toBe(before + amount);
  });

  it("lets a stranger who replays the account's signed authorization do nothing but re-delegate it", async () => {
    // Mallory sends a type-4 transaction carrying an authorization of alice's for the same executor.
    const nonce = await fx.pub.getTransactionCount({ address: fx.alice.address });
    const authorization = await fx.alice.wallet.signAuthorization({
      account: fx.alice.account,
      contractAddress: executor,
      nonce,
    });
    const before = await tokenBalance(fx.alice.address);
    const hash = await fx.mallory.wallet.sendTransaction({
      account: fx.mallory.account,
      chain: fx.mallory.wallet.chain,
      authorizationList: [authorization],
      to: fx.alice.address,
      data: executeData([transferCall(fx.mallory.address, before)]),
      gas: 500_000n,
    });
    expect((await fx.pub.waitForTransactionReceipt({ hash })).status).toBe("reverted");
    expect(await tokenBalance(fx.alice.address)).toBe(before);
    expect((await fx.pub.getCode({ address: fx.alice.address }))?.toLowerCase()).toBe(
      concat(["0xef0100", executor]).toLowerCase(),
    );
  });
});
