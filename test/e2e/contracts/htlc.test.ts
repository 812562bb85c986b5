/** The ERC20 HTLC (v3) on a real anvil: every function, event and revert path. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  concat,
  decodeFunctionData,
  encodeFunctionData,
  maxUint256,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import { erc20Abi } from "../../../src/chains/evm/htlc-abi.js";
import {
  EvmDeploymentError,
  deployHtlc,
  deployTestSmartWallet,
  deployTestToken,
} from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import {
  expectRevert,
  mine,
  newSecret,
  send,
  startChainFixture,
  type Actor,
  type ChainFixture,
} from "./fixture.js";
import {
  expectDomain,
  expectOpenOrder,
  onlyHtlcEvent,
  orderIdOf,
  readOrder,
  signInitiate,
  signRefund,
  type OrderTerms,
} from "./htlc-helpers.js";

const CHAIN_ID = 48_151;
const MINTED = 10n ** 24n;

let fx: ChainFixture;
let abi: Abi;
let token: Address;
let htlc: Address;

beforeAll(async () => {
  fx = await startChainFixture(CHAIN_ID);
  // The token's errors too, so that a failed transferFrom is named.
  abi = [...loadArtifact("HTLC").abi, ...loadArtifact("TestToken").abi.filter((i) => i.type === "error")];
  token = await deployTestToken(fx.deployer.wallet, fx.pub, {
    name: "Test USD",
    symbol: "TUSD",
    decimals: 6,
  });
  htlc = await deployHtlc(fx.deployer.wallet, fx.pub, token);
  for (const actor of [fx.alice, fx.carol]) {
    await fund(actor.address);
    await approve(actor, htlc);
  }
});

afterAll(async () => {
  await fx?.stop();
});

async function fund(to: Address): Promise<void> {
  await send(fx, fx.deployer, {
    address: token,
    abi: loadArtifact("TestToken").abi,
    functionName: "mint",
    args: [to, MINTED],
  });
}

async function approve(actor: Actor, spender: Address): Promise<void> {
  await send(fx, actor, {
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [spender, maxUint256],
  });
}

function balanceOf(owner: Address): Promise<bigint> {
  return fx.pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

function terms(overrides: Partial<OrderTerms> = {}): OrderTerms & { secret: Hex } {
  const { secret, secretHash } = newSecret();
  return {
    initiator: fx.alice.address,
    redeemer: fx.bob.address,
    timelock: 20n,
    amount: 1_000_000n,
    secretHash,
    secret,
    ...overrides,
  };
}

const initiateArgs = (t: OrderTerms) => [t.redeemer, t.timelock, t.amount, t.secretHash] as const;
const onBehalfArgs = (t: OrderTerms) =>
  [t.initiator, t.redeemer, t.timelock, t.amount, t.secretHash] as const;

/** Alice initiates an order with default terms; returns the terms, the id and the block. */
async function openOrder(overrides: Partial<OrderTerms> = {}) {
  const t = terms(overrides);
  const receipt = await send(fx, fx.alice, {
    address: htlc,
    abi,
    functionName: "initiate",
    args: initiateArgs(t),
  });
  return { t, id: orderIdOf(fx, htlc, t), block: receipt.blockNumber };
}

describe("deployment", () => {
  it("exposes its token and the EIP-712 domain HTLC/3", async () => {
    expect(await fx.pub.readContract({ address: htlc, abi, functionName: "token" })).toBe(token);
    await expectDomain(fx, htlc);
  });

  it("refuses a token address without code, and deployHtlc names the contract", async () => {
    const deploying = deployHtlc(fx.deployer.wallet, fx.pub, fx.mallory.address);
    await expect(deploying).rejects.toBeInstanceOf(EvmDeploymentError);
    await expect(deploying).rejects.toThrow(/deployment of HTLC failed/);
  });
});

describe("initiate", () => {
  it("pulls the caller's tokens, stores the order under evmOrderId() and emits Initiated", async () => {
    const t = terms();
    const before = await balanceOf(fx.alice.address);
    const receipt = await send(fx, fx.alice, {
      address: htlc,
      abi,
      functionName: "initiate",
      args: initiateArgs(t),
    });
    const id = orderIdOf(fx, htlc, t);

    expect(await balanceOf(fx.alice.address)).toBe(before - t.amount);
    await expectOpenOrder(fx, htlc, id, t, receipt.blockNumber);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({
      eventName: "Initiated",
      args: { orderID: id, secretHash: t.secretHash, amount: t.amount },
    });
  });

  it("accepts destinationData in calldata without changing the order", async () => {
    const t = terms();
    const destinationData = toHex("bc1qdestination");
    const receipt = await send(fx, fx.alice, {
      address: htlc,
      abi,
      functionName: "initiate",
      args: [...initiateArgs(t), destinationData],
    });
    const id = orderIdOf(fx, htlc, t);
    await expectOpenOrder(fx, htlc, id, t, receipt.blockNumber);
    expect(onlyHtlcEvent(receipt, htlc).args).toEqual({
      orderID: id,
      secretHash: t.secretHash,
      amount: t.amount,
    });
    const tx = await fx.pub.getTransaction({ hash: receipt.transactionHash });
    expect(decodeFunctionData({ abi, data: tx.input }).args).toEqual([...initiateArgs(t), destinationData]);
  });

  it("initiateOnBehalf takes the funder's tokens and keeps the initiator as refundee", async () => {
    const t = terms();
    const [aliceBefore, carolBefore] = [await balanceOf(fx.alice.address), await balanceOf(fx.carol.address)];
    const receipt = await send(fx, fx.carol, {
      address: htlc,
      abi,
      functionName: "initiateOnBehalf",
      args: onBehalfArgs(t),
    });
    const id = orderIdOf(fx, htlc, t);
    expect(await balanceOf(fx.carol.address)).toBe(carolBefore - t.amount);
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore);
    await expectOpenOrder(fx, htlc, id, t, receipt.blockNumber);
    expect(onlyHtlcEvent(receipt, htlc).args.orderID).toBe(id);
  });

  it("initiateOnBehalf accepts destinationData", async () => {
    const t = terms();
    const receipt = await send(fx, fx.carol, {
      address: htlc,
      abi,
      functionName: "initiateOnBehalf",
      args: [...onBehalfArgs(t), "0xdeadbeef"],
    });
    await expectOpenOrder(fx, htlc, orderIdOf(fx, htlc, t), t, receipt.blockNumber);
  });

  it("rejects a zero redeemer, initiator == redeemer, zero timelock and zero amount", async () => {
    const call = (t: OrderTerms) => ({ address: htlc, abi, functionName: "initiate", args: initiateArgs(t) });
    const zero: Address = "0x0000000000000000000000000000000000000000";
    await expectRevert(fx, fx.alice, call(terms({ redeemer: zero })), "ZeroAddressRedeemer");
    await expectRevert(fx, fx.alice, call(terms({ redeemer: fx.alice.address })), "SameInitiatorAndRedeemer");
    await expectRevert(fx, fx.alice, call(terms({ timelock: 0n })), "ZeroTimelock");
    await expectRevert(fx, fx.alice, call(terms({ amount: 0n })), "ZeroAmount");
  });

  it("rejects initiateOnBehalf with a zero initiator or a funder who is the redeemer", async () => {
    const call = (t: OrderTerms) => ({
      address: htlc,
      abi,
      functionName: "initiateOnBehalf",
      args: onBehalfArgs(t),
    });
    const zero: Address = "0x0000000000000000000000000000000000000000";
    await expectRevert(fx, fx.carol, call(terms({ initiator: zero })), "ZeroAddressInitiator");
    await expectRevert(fx, fx.bob, call(terms()), "SameFunderAndRedeemer");
  });

  it("rejects coin sent along on every ERC20 initiate path", async () => {
    const t = terms();
    const value = 1n;
    const initiate = { address: htlc, abi, functionName: "initiate", args: initiateArgs(t), value };
    expect(await expectRevert(fx, fx.alice, initiate, "NativeValueNotAccepted")).toEqual([value]);
    const withData = { ...initiate, args: [...initiateArgs(t), "0x"] };
    await expectRevert(fx, fx.alice, withData, "NativeValueNotAccepted");
    const onBehalf = { address: htlc, abi, functionName: "initiateOnBehalf", args: onBehalfArgs(t), value };
    await expectRevert(fx, fx.carol, onBehalf, "NativeValueNotAccepted");
    await expectRevert(
      fx,
      fx.carol,
      { ...onBehalf, args: [...onBehalfArgs(t), "0x"] },
      "NativeValueNotAccepted",
    );
  });

  it("rejects a duplicate of an open order and of a fulfilled one", async () => {
    const { t, id } = await openOrder();
    const again = { address: htlc, abi, functionName: "initiate", args: initiateArgs(t) };
    expect(await expectRevert(fx, fx.alice, again, "DuplicateOrder")).toEqual([id]);
    // Same terms on behalf of the same initiator give the same id.
    const onBehalf = { address: htlc, abi, functionName: "initiateOnBehalf", args: onBehalfArgs(t) };
    await expectRevert(fx, fx.carol, onBehalf, "DuplicateOrder");

    await send(fx, fx.mallory, { address: htlc, abi, functionName: "redeem", args: [id, t.secret] });
    await expectRevert(fx, fx.alice, again, "DuplicateOrder");
  });

  it("fails without allowance and stores nothing", async () => {
    const t = terms({ initiator: fx.mallory.address });
    const call = { address: htlc, abi, functionName: "initiate", args: initiateArgs(t) };
    await expectRevert(fx, fx.mallory, call, "ERC20InsufficientAllowance");
    expect((await readOrder(fx, htlc, orderIdOf(fx, htlc, t))).initiatedAt).toBe(0n);
  });
});

describe("initiateWithSignature", () => {
  const call = (t: OrderTerms, signature: Hex) => ({
    address: htlc,
    abi,
    functionName: "initiateWithSignature",
    args: [...onBehalfArgs(t), signature],
  });

  it("lets anyone submit the initiator's signed order and pulls the initiator's tokens", async () => {
    const t = terms();
    const signature = await signInitiate(fx, fx.alice, htlc, t);
    const [aliceBefore, carolBefore] = [await balanceOf(fx.alice.address), await balanceOf(fx.carol.address)];
    const receipt = await send(fx, fx.carol, call(t, signature));
    const id = orderIdOf(fx, htlc, t);
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore - t.amount);
    expect(await balanceOf(fx.carol.address)).toBe(carolBefore);
    await expectOpenOrder(fx, htlc, id, t, receipt.blockNumber);
    expect(onlyHtlcEvent(receipt, htlc).args).toEqual({
      orderID: id,
      secretHash: t.secretHash,
      amount: t.amount,
    });
  });

  it("rejects a signature by someone else and one over other terms", async () => {
    const t = terms();
    await expectRevert(
      fx,
      fx.carol,
      call(t, await signInitiate(fx, fx.mallory, htlc, t)),
      "InvalidInitiatorSignature",
    );
    const signedOther = await signInitiate(fx, fx.alice, htlc, { ...t, amount: t.amount + 1n });
    await expectRevert(fx, fx.carol, call(t, signedOther), "InvalidInitiatorSignature");
    await expectRevert(fx, fx.carol, call(t, "0x1234"), "InvalidInitiatorSignature");
  });

  it("rejects a replayed signature, on this contract and on another deployment", async () => {
    const t = terms();
    const signature = await signInitiate(fx, fx.alice, htlc, t);
    await send(fx, fx.carol, call(t, signature));
    await expectRevert(fx, fx.carol, call(t, signature), "DuplicateOrder");

    const other = await deployHtlc(fx.deployer.wallet, fx.pub, token);
    await approve(fx.alice, other);
    const onOther = { ...call(t, signature), address: other };
    await expectRevert(fx, fx.carol, onOther, "InvalidInitiatorSignature");
  });

  it("accepts an EIP-1271 contract wallet as initiator", async () => {
    const wallet = await deployTestSmartWallet(fx.deployer.wallet, fx.pub, fx.alice.address);
    await fund(wallet);
    const approveData = encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [htlc, maxUint256],
    });
    const walletAbi = loadArtifact("TestSmartWallet").abi;
    await send(fx, fx.alice, {
      address: wallet,
      abi: walletAbi,
      functionName: "execute",
      args: [token, 0n, approveData],
    });

    const t = terms({ initiator: wallet });
    await expectRevert(
      fx,
      fx.carol,
      call(t, await signInitiate(fx, fx.mallory, htlc, t)),
      "InvalidInitiatorSignature",
    );
    const receipt = await send(fx, fx.carol, call(t, await signInitiate(fx, fx.alice, htlc, t)));
    await expectOpenOrder(fx, htlc, orderIdOf(fx, htlc, t), t, receipt.blockNumber);
    expect(await balanceOf(wallet)).toBe(MINTED - t.amount);
  });
});

describe("redeem", () => {
  const redeem = (id: Hex, secret: Hex) => ({
    address: htlc,
    abi,
    functionName: "redeem",
    args: [id, secret],
  });

  it("pays the redeemer whoever submits the secret, emits Redeemed and marks the order fulfilled", async () => {
    const { t, id } = await openOrder();
    const [bobBefore, htlcBefore] = [await balanceOf(fx.bob.address), await balanceOf(htlc)];
    const receipt = await send(fx, fx.mallory, redeem(id, t.secret));
    expect(await balanceOf(fx.bob.address)).toBe(bobBefore + t.amount);
    expect(await balanceOf(htlc)).toBe(htlcBefore - t.amount);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({
      eventName: "Redeemed",
      args: { orderID: id, secretHash: t.secretHash, secret: t.secret },
    });
    expect((await readOrder(fx, htlc, id)).fulfilledAt).toBe(receipt.blockNumber);
  });

  it("rejects a wrong secret and a secret that is not 32 bytes", async () => {
    const { t, id } = await openOrder();
    expect(await expectRevert(fx, fx.bob, redeem(id, newSecret().secret), "IncorrectSecret")).toEqual([id]);
    const short = t.secret.slice(0, -2) as Hex;
    expect(await expectRevert(fx, fx.bob, redeem(id, short), "InvalidSecretLength")).toEqual([31n]);
    expect(
      await expectRevert(fx, fx.bob, redeem(id, concat([t.secret, "0x00"])), "InvalidSecretLength"),
    ).toEqual([33n]);
  });

  it("rejects a second redeem and an unknown order", async () => {
    const { t, id } = await openOrder();
    await send(fx, fx.bob, redeem(id, t.secret));
    await expectRevert(fx, fx.bob, redeem(id, t.secret), "OrderFulfilled");
    const unknown = newSecret();
    expect(
      await expectRevert(fx, fx.bob, redeem(unknown.secretHash, unknown.secret), "OrderNotInitiated"),
    ).toEqual([unknown.secretHash]);
  });

  it("still redeems after expiry while nobody has refunded", async () => {
    const { t, id } = await openOrder({ timelock: 3n });
    await mine(fx, 10);
    const bobBefore = await balanceOf(fx.bob.address);
    await send(fx, fx.mallory, redeem(id, t.secret));
    expect(await balanceOf(fx.bob.address)).toBe(bobBefore + t.amount);
  });
});

describe("refund", () => {
  const refund = (id: Hex) => ({ address: htlc, abi, functionName: "refund", args: [id] });

  it("reverts until initiatedAt + timelock < block.number, then pays the initiator", async () => {
    const { t, id, block } = await openOrder({ timelock: 5n });
    await mine(fx, 4);
    // The next transaction lands in block initiatedAt + timelock: still locked.
    await expectRevert(fx, fx.mallory, refund(id), "OrderNotExpired");
    const aliceBefore = await balanceOf(fx.alice.address);
    const receipt = await send(fx, fx.mallory, refund(id));
    expect(receipt.blockNumber).toBe(block + t.timelock + 1n);
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({ eventName: "Refunded", args: { orderID: id } });
    expect((await readOrder(fx, htlc, id)).fulfilledAt).toBe(receipt.blockNumber);
  });

  it("pays an on-behalf order back to its initiator, not to the funder", async () => {
    const t = terms({ timelock: 1n });
    await send(fx, fx.carol, { address: htlc, abi, functionName: "initiateOnBehalf", args: onBehalfArgs(t) });
    await mine(fx, 1);
    const [aliceBefore, carolBefore] = [await balanceOf(fx.alice.address), await balanceOf(fx.carol.address)];
    await send(fx, fx.mallory, refund(orderIdOf(fx, htlc, t)));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    expect(await balanceOf(fx.carol.address)).toBe(carolBefore);
  });

  it("rejects a refund after a redeem, a second refund, a redeem after a refund and an unknown order", async () => {
    const redeemed = await openOrder({ timelock: 1n });
    await send(fx, fx.bob, {
      address: htlc,
      abi,
      functionName: "redeem",
      args: [redeemed.id, redeemed.t.secret],
    });
    const refunded = await openOrder({ timelock: 1n });
    await mine(fx, 2);
    await expectRevert(fx, fx.alice, refund(redeemed.id), "OrderFulfilled");
    await send(fx, fx.alice, refund(refunded.id));
    await expectRevert(fx, fx.alice, refund(refunded.id), "OrderFulfilled");
    const redeemLate = { address: htlc, abi, functionName: "redeem", args: [refunded.id, refunded.t.secret] };
    await expectRevert(fx, fx.bob, redeemLate, "OrderFulfilled");
    await expectRevert(fx, fx.alice, refund(newSecret().secretHash), "OrderNotInitiated");
  });
});

describe("instantRefund", () => {
  const instantRefund = (id: Hex, signature: Hex) => ({
    address: htlc,
    abi,
    functionName: "instantRefund",
    args: [id, signature],
  });

  it("lets the redeemer refund the initiator at once, without a signature", async () => {
    const { t, id } = await openOrder();
    const aliceBefore = await balanceOf(fx.alice.address);
    const receipt = await send(fx, fx.bob, instantRefund(id, "0x"));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({ eventName: "Refunded", args: { orderID: id } });
    expect((await readOrder(fx, htlc, id)).fulfilledAt).toBe(receipt.blockNumber);
  });

  it("accepts the redeemer's Refund signature from anyone, once", async () => {
    const { t, id } = await openOrder();
    const signature = await signRefund(fx, fx.bob, htlc, id);
    const aliceBefore = await balanceOf(fx.alice.address);
    await send(fx, fx.mallory, instantRefund(id, signature));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    await expectRevert(fx, fx.mallory, instantRefund(id, signature), "OrderFulfilled");
  });

  it("rejects a missing, foreign or initiator's signature", async () => {
    const { id } = await openOrder();
    await expectRevert(fx, fx.mallory, instantRefund(id, "0x"), "InvalidRedeemerSignature");
    await expectRevert(
      fx,
      fx.mallory,
      instantRefund(id, await signRefund(fx, fx.mallory, htlc, id)),
      "InvalidRedeemerSignature",
    );
    await expectRevert(
      fx,
      fx.alice,
      instantRefund(id, await signRefund(fx, fx.alice, htlc, id)),
      "InvalidRedeemerSignature",
    );
  });

  it("rejects a signature replayed on another order", async () => {
    const first = await openOrder();
    const second = await openOrder();
    const signature = await signRefund(fx, fx.bob, htlc, first.id);
    const args = await expectRevert(
      fx,
      fx.mallory,
      instantRefund(second.id, signature),
      "InvalidRedeemerSignature",
    );
    expect(args).toEqual([second.id]);
  });

  it("rejects an instant refund after a redeem and of an unknown order", async () => {
    const { t, id } = await openOrder();
    await send(fx, fx.bob, { address: htlc, abi, functionName: "redeem", args: [id, t.secret] });
    await expectRevert(fx, fx.bob, instantRefund(id, "0x"), "OrderFulfilled");
    await expectRevert(fx, fx.bob, instantRefund(newSecret().secretHash, "0x"), "OrderNotInitiated");
  });

  it("accepts an EIP-1271 contract wallet redeemer's signature", async () => {
    const redeemerWallet = await deployTestSmartWallet(fx.deployer.wallet, fx.pub, fx.bob.address);
    const { t, id } = await openOrder({ redeemer: redeemerWallet });
    await expectRevert(
      fx,
      fx.mallory,
      instantRefund(id, await signRefund(fx, fx.mallory, htlc, id)),
      "InvalidRedeemerSignature",
    );
    const aliceBefore = await balanceOf(fx.alice.address);
    await send(fx, fx.mallory, instantRefund(id, await signRefund(fx, fx.bob, htlc, id)));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
  });
});
