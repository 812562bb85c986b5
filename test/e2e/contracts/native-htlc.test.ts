/** The native-coin HTLC (v3) on a real anvil: every function, event and revert path. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concat, decodeFunctionData, type Abi, type Address, type Hex } from "viem";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import {
  deployNativeHtlc,
  deployTestSmartWallet,
  deployTestToken,
} from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { expectRevert, mine, newSecret, send, startChainFixture, type ChainFixture } from "./fixture.js";
import {
  expectDomain,
  expectOpenOrder,
  onlyHtlcEvent,
  orderIdOf,
  readOrder,
  signRefund,
  type OrderTerms,
} from "./htlc-helpers.js";

const CHAIN_ID = 62_342;
const ZERO: Address = "0x0000000000000000000000000000000000000000";

let fx: ChainFixture;
let abi: Abi;
let htlc: Address;

beforeAll(async () => {
  fx = await startChainFixture(CHAIN_ID);
  abi = loadArtifact("NativeHTLC").abi;
  htlc = await deployNativeHtlc(fx.deployer.wallet, fx.pub);
});

afterAll(async () => {
  await fx?.stop();
});

const balanceOf = (address: Address): Promise<bigint> => fx.pub.getBalance({ address });

function terms(overrides: Partial<OrderTerms> = {}): OrderTerms & { secret: Hex } {
  const { secret, secretHash } = newSecret();
  return {
    initiator: fx.alice.address,
    redeemer: fx.bob.address,
    timelock: 20n,
    amount: 10n ** 15n,
    secretHash,
    secret,
    ...overrides,
  };
}

const initiateArgs = (t: OrderTerms) => [t.redeemer, t.timelock, t.amount, t.secretHash] as const;
const onBehalfArgs = (t: OrderTerms) =>
  [t.initiator, t.redeemer, t.timelock, t.amount, t.secretHash] as const;
const initiate = (t: OrderTerms, value = t.amount) => ({
  address: htlc,
  abi,
  functionName: "initiate",
  args: initiateArgs(t),
  value,
});
const onBehalf = (t: OrderTerms, value = t.amount) => ({
  address: htlc,
  abi,
  functionName: "initiateOnBehalf",
  args: onBehalfArgs(t),
  value,
});

async function openOrder(overrides: Partial<OrderTerms> = {}) {
  const t = terms(overrides);
  const receipt = await send(fx, fx.alice, initiate(t));
  return { t, id: orderIdOf(fx, htlc, t), block: receipt.blockNumber };
}

describe("deployment", () => {
  it("exposes the EIP-712 domain HTLC/3 and no ERC20-only functions", async () => {
    await expectDomain(fx, htlc);
    const names = abi.filter((i) => i.type === "function").map((i) => i.name);
    expect(names).not.toContain("token");
    expect(names).not.toContain("initiateWithSignature");
  });
});

describe("initiate", () => {
  it("locks msg.value, stores the order under evmOrderId() and emits Initiated", async () => {
    const t = terms();
    const before = await balanceOf(htlc);
    const receipt = await send(fx, fx.alice, initiate(t));
    const id = orderIdOf(fx, htlc, t);
    expect(await balanceOf(htlc)).toBe(before + t.amount);
    await expectOpenOrder(fx, htlc, id, t, receipt.blockNumber);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({
      eventName: "Initiated",
      args: { orderID: id, secretHash: t.secretHash, amount: t.amount },
    });
  });

  it("accepts destinationData in calldata without changing the order", async () => {
    const t = terms();
    const receipt = await send(fx, fx.alice, { ...initiate(t), args: [...initiateArgs(t), "0xc0ffee"] });
    await expectOpenOrder(fx, htlc, orderIdOf(fx, htlc, t), t, receipt.blockNumber);
    const tx = await fx.pub.getTransaction({ hash: receipt.transactionHash });
    expect(decodeFunctionData({ abi, data: tx.input }).args).toEqual([...initiateArgs(t), "0xc0ffee"]);
  });

  it("initiateOnBehalf takes the funder's coin and keeps the initiator as refundee", async () => {
    const t = terms();
    const aliceBefore = await balanceOf(fx.alice.address);
    const receipt = await send(fx, fx.carol, onBehalf(t));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore);
    await expectOpenOrder(fx, htlc, orderIdOf(fx, htlc, t), t, receipt.blockNumber);

    const withData = terms();
    const second = await send(fx, fx.carol, {
      ...onBehalf(withData),
      args: [...onBehalfArgs(withData), "0x01"],
    });
    await expectOpenOrder(fx, htlc, orderIdOf(fx, htlc, withData), withData, second.blockNumber);
  });

  it("rejects msg.value other than amount on every initiate path", async () => {
    const t = terms();
    const less = await expectRevert(fx, fx.alice, initiate(t, t.amount - 1n), "IncorrectNativeValue");
    expect(less).toEqual([t.amount, t.amount - 1n]);
    await expectRevert(fx, fx.alice, initiate(t, t.amount + 1n), "IncorrectNativeValue");
    await expectRevert(fx, fx.alice, initiate(t, 0n), "IncorrectNativeValue");
    const withData = { ...initiate(t, 0n), args: [...initiateArgs(t), "0x"] };
    await expectRevert(fx, fx.alice, withData, "IncorrectNativeValue");
    await expectRevert(fx, fx.carol, onBehalf(t, t.amount * 2n), "IncorrectNativeValue");
    const onBehalfWithData = { ...onBehalf(t, 1n), args: [...onBehalfArgs(t), "0x"] };
    await expectRevert(fx, fx.carol, onBehalfWithData, "IncorrectNativeValue");
  });

  it("rejects zero and conflicting terms", async () => {
    await expectRevert(fx, fx.alice, initiate(terms({ redeemer: ZERO })), "ZeroAddressRedeemer");
    await expectRevert(
      fx,
      fx.alice,
      initiate(terms({ redeemer: fx.alice.address })),
      "SameInitiatorAndRedeemer",
    );
    await expectRevert(fx, fx.alice, initiate(terms({ timelock: 0n })), "ZeroTimelock");
    await expectRevert(fx, fx.alice, initiate(terms({ amount: 0n })), "ZeroAmount");
    await expectRevert(fx, fx.carol, onBehalf(terms({ initiator: ZERO })), "ZeroAddressInitiator");
    await expectRevert(fx, fx.bob, onBehalf(terms()), "SameFunderAndRedeemer");
  });

  it("rejects a duplicate of an open order and of a fulfilled one", async () => {
    const { t, id } = await openOrder();
    expect(await expectRevert(fx, fx.alice, initiate(t), "DuplicateOrder")).toEqual([id]);
    await expectRevert(fx, fx.carol, onBehalf(t), "DuplicateOrder");
    await send(fx, fx.bob, { address: htlc, abi, functionName: "instantRefund", args: [id, "0x"] });
    await expectRevert(fx, fx.alice, initiate(t), "DuplicateOrder");
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
    const bobBefore = await balanceOf(fx.bob.address);
    const receipt = await send(fx, fx.mallory, redeem(id, t.secret));
    expect(await balanceOf(fx.bob.address)).toBe(bobBefore + t.amount);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({
      eventName: "Redeemed",
      args: { orderID: id, secretHash: t.secretHash, secret: t.secret },
    });
    expect((await readOrder(fx, htlc, id)).fulfilledAt).toBe(receipt.blockNumber);
  });

  it("rejects a wrong secret, a secret that is not 32 bytes, a second redeem and an unknown order", async () => {
    const { t, id } = await openOrder();
    await expectRevert(fx, fx.bob, redeem(id, newSecret().secret), "IncorrectSecret");
    expect(await expectRevert(fx, fx.bob, redeem(id, "0x"), "InvalidSecretLength")).toEqual([0n]);
    await expectRevert(fx, fx.bob, redeem(id, concat([t.secret, "0x00"])), "InvalidSecretLength");
    await send(fx, fx.bob, redeem(id, t.secret));
    await expectRevert(fx, fx.bob, redeem(id, t.secret), "OrderFulfilled");
    const unknown = newSecret();
    await expectRevert(fx, fx.bob, redeem(unknown.secretHash, unknown.secret), "OrderNotInitiated");
  });

  it("still redeems after expiry while nobody has refunded", async () => {
    const { t, id } = await openOrder({ timelock: 2n });
    await mine(fx, 5);
    const bobBefore = await balanceOf(fx.bob.address);
    await send(fx, fx.mallory, redeem(id, t.secret));
    expect(await balanceOf(fx.bob.address)).toBe(bobBefore + t.amount);
  });

  it("reverts when the redeemer refuses the coin, and the order stays refundable", async () => {
    // A token contract has no receive function, so it rejects plain transfers of coin.
    const refuser = await deployTestToken(fx.deployer.wallet, fx.pub, {
      name: "R",
      symbol: "R",
      decimals: 0,
    });
    const { t, id } = await openOrder({ redeemer: refuser, timelock: 1n });
    expect(await expectRevert(fx, fx.mallory, redeem(id, t.secret), "NativeTransferFailed")).toEqual([
      refuser,
    ]);
    expect((await readOrder(fx, htlc, id)).fulfilledAt).toBe(0n);
    await send(fx, fx.mallory, { address: htlc, abi, functionName: "refund", args: [id] });
  });
});

describe("refund", () => {
  const refund = (id: Hex) => ({ address: htlc, abi, functionName: "refund", args: [id] });

  it("reverts until initiatedAt + timelock < block.number, then pays the initiator", async () => {
    const { t, id, block } = await openOrder({ timelock: 4n });
    await mine(fx, 3);
    expect(await expectRevert(fx, fx.mallory, refund(id), "OrderNotExpired")).toEqual([id]);
    const aliceBefore = await balanceOf(fx.alice.address);
    const receipt = await send(fx, fx.mallory, refund(id));
    expect(receipt.blockNumber).toBe(block + t.timelock + 1n);
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    expect(onlyHtlcEvent(receipt, htlc)).toEqual({ eventName: "Refunded", args: { orderID: id } });
  });

  it("pays an on-behalf order back to its initiator, not to the funder", async () => {
    const t = terms({ timelock: 1n });
    await send(fx, fx.carol, onBehalf(t));
    await mine(fx, 1);
    const [aliceBefore, carolBefore] = [await balanceOf(fx.alice.address), await balanceOf(fx.carol.address)];
    await send(fx, fx.mallory, refund(orderIdOf(fx, htlc, t)));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
    expect(await balanceOf(fx.carol.address)).toBe(carolBefore);
  });

  it("rejects a refund after a redeem, a second refund and an unknown order", async () => {
    const { t, id } = await openOrder({ timelock: 1n });
    await send(fx, fx.bob, { address: htlc, abi, functionName: "redeem", args: [id, t.secret] });
    await mine(fx, 2);
    await expectRevert(fx, fx.alice, refund(id), "OrderFulfilled");
    const expired = await openOrder({ timelock: 1n });
    await mine(fx, 1);
    await send(fx, fx.alice, refund(expired.id));
    await expectRevert(fx, fx.alice, refund(expired.id), "OrderFulfilled");
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

  it("lets the redeemer refund the initiator at once", async () => {
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

  it("rejects a bad signature and one replayed on another order", async () => {
    const first = await openOrder();
    const second = await openOrder();
    const foreign = await signRefund(fx, fx.mallory, htlc, first.id);
    await expectRevert(fx, fx.mallory, instantRefund(first.id, foreign), "InvalidRedeemerSignature");
    const signature = await signRefund(fx, fx.bob, htlc, first.id);
    await expectRevert(fx, fx.mallory, instantRefund(second.id, signature), "InvalidRedeemerSignature");
    await expectRevert(fx, fx.mallory, instantRefund(newSecret().secretHash, signature), "OrderNotInitiated");
  });

  it("accepts an EIP-1271 contract wallet redeemer's signature", async () => {
    const redeemerWallet = await deployTestSmartWallet(fx.deployer.wallet, fx.pub, fx.bob.address);
    const { t, id } = await openOrder({ redeemer: redeemerWallet });
    const aliceBefore = await balanceOf(fx.alice.address);
    await send(fx, fx.mallory, instantRefund(id, await signRefund(fx, fx.bob, htlc, id)));
    expect(await balanceOf(fx.alice.address)).toBe(aliceBefore + t.amount);
  });
});
