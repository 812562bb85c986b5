import { afterEach, describe, expect, it } from "vitest";
import { hash, shortString } from "starknet";
import { initiateTypedData, instantRefundTypedData } from "../../../../src/families/starknet/chain/snip12.js";
import { orderId } from "../../../../src/families/starknet/chain/order-id.js";
import type { OrderIdLayout } from "../../../../src/families/starknet/chain/index.js";
import {
  approveCall,
  expectedOrderId,
  fee,
  initiateCall,
  mined,
  secretPair,
  selector,
  startSetup,
  type Setup,
} from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sn.stop();
  setup = undefined;
});

const AMOUNT = 50_000n;
const TIMELOCK = 5n;

async function getOrder(s: Setup, id: bigint): Promise<string[]> {
  return s.alice.account.rpc<string[]>("starknet_call", [
    {
      contract_address: s.htlc,
      entry_point_selector: `0x${selector("get_order").toString(16)}`,
      calldata: [`0x${id.toString(16)}`],
    },
    "latest",
  ]);
}

describe.each<OrderIdLayout>(["deployed", "audited"])("HTLC happy paths, %s layout", (layout) => {
  it("initiates and redeems with the 8-word secret; the Redeemed event carries it; balances exact", async () => {
    const s = (setup = await startSetup(layout));
    const { alice, bob, sn, token, htlc } = s;
    sn.mint(token, alice.address, AMOUNT);
    const { words, hashWords } = secretPair();
    const id = expectedOrderId(
      layout,
      BigInt(sn.chainId),
      alice.address,
      bob.address,
      TIMELOCK,
      AMOUNT,
      hashWords,
      htlc,
    );
    const strkBefore = sn.balanceOf(sn.feeToken, alice.address);

    const init = await mined(sn, alice, [
      approveCall(token, htlc, AMOUNT),
      initiateCall(htlc, bob.address, TIMELOCK, AMOUNT, hashWords),
    ]);
    expect(init.execution_status).toBe("SUCCEEDED");
    expect(sn.balanceOf(sn.feeToken, alice.address)).toBe(strkBefore - fee(init));
    expect(sn.balanceOf(token, alice.address)).toBe(0n);
    expect(sn.balanceOf(token, htlc)).toBe(AMOUNT);
    const initiated = init.events.find((e) => e.from_address === htlc);
    expect(initiated?.keys).toEqual([selector("Initiated"), id].map((v) => `0x${v.toString(16)}`));
    expect(initiated?.data.map(BigInt)).toEqual([...hashWords, AMOUNT, 0n]);
    expect((await getOrder(s, id)).map(BigInt)).toEqual([
      0n,
      BigInt(alice.address),
      BigInt(bob.address),
      BigInt(init.block_number),
      TIMELOCK,
      AMOUNT,
      0n,
    ]);

    const bobStrk = sn.balanceOf(sn.feeToken, bob.address);
    const redeem = await mined(sn, bob, [{ to: htlc, entrypoint: "redeem", calldata: [id, 8n, ...words] }]);
    expect(redeem.execution_status).toBe("SUCCEEDED");
    expect(sn.balanceOf(token, bob.address)).toBe(AMOUNT);
    expect(sn.balanceOf(token, htlc)).toBe(0n);
    expect(sn.balanceOf(sn.feeToken, bob.address)).toBe(bobStrk - fee(redeem));
    const redeemed = redeem.events.find(
      (e) => e.from_address === htlc && BigInt(e.keys[0] ?? 0) === selector("Redeemed"),
    );
    expect(redeemed?.keys.map(BigInt)).toEqual([selector("Redeemed"), id]);
    expect(redeemed?.data.map(BigInt)).toEqual([...hashWords, 8n, ...words]);
    expect((await getOrder(s, id))[0]).toBe("0x1");
  });

  it("refunds after expiry (initiated_at + timelock < block) to the initiator", async () => {
    const s = (setup = await startSetup(layout));
    const { alice, bob, sn, token, htlc } = s;
    sn.mint(token, alice.address, AMOUNT);
    const { hashWords } = secretPair();
    const id = expectedOrderId(
      layout,
      BigInt(sn.chainId),
      alice.address,
      bob.address,
      TIMELOCK,
      AMOUNT,
      hashWords,
      htlc,
    );
    const init = await mined(sn, alice, [
      approveCall(token, htlc, AMOUNT),
      initiateCall(htlc, bob.address, TIMELOCK, AMOUNT, hashWords),
    ]);
    // The refund's block must be past initiated_at + timelock: the chain's head reaches that block first.
    sn.mineBlock(Number(TIMELOCK));
    expect(sn.chain.latest().number).toBe(BigInt(init.block_number) + TIMELOCK);
    const strk = sn.balanceOf(sn.feeToken, bob.address);
    const refund = await mined(sn, bob, [{ to: htlc, entrypoint: "refund", calldata: [id] }]);
    expect(BigInt(refund.block_number)).toBe(BigInt(init.block_number) + TIMELOCK + 1n);
    expect(refund.execution_status).toBe("SUCCEEDED");
    expect(sn.balanceOf(token, alice.address)).toBe(AMOUNT);
    expect(sn.balanceOf(sn.feeToken, bob.address)).toBe(strk - fee(refund));
    const refunded = refund.events.find((e) => e.from_address === htlc);
    expect(refunded?.keys.map(BigInt)).toEqual([selector("Refunded"), id]);
    expect(refunded?.data).toEqual([]);
  });

  it("instant-refunds with the redeemer's SNIP-12 signature, sent by anyone", async () => {
    const s = (setup = await startSetup(layout));
    const { alice, bob, sn, token, htlc } = s;
    sn.mint(token, alice.address, AMOUNT);
    const { hashWords } = secretPair();
    const id = expectedOrderId(
      layout,
      BigInt(sn.chainId),
      alice.address,
      bob.address,
      TIMELOCK,
      AMOUNT,
      hashWords,
      htlc,
    );
    await mined(sn, alice, [
      approveCall(token, htlc, AMOUNT),
      initiateCall(htlc, bob.address, TIMELOCK, AMOUNT, hashWords),
    ]);
    const signature = bob.account.signMessage(
      instantRefundTypedData({ layout, chainId: BigInt(sn.chainId), htlc: BigInt(htlc), orderId: id }),
    );
    const strk = sn.balanceOf(sn.feeToken, alice.address);
    const refund = await mined(sn, alice, [
      { to: htlc, entrypoint: "instant_refund", calldata: [id, 2n, ...signature] },
    ]);
    expect(refund.execution_status).toBe("SUCCEEDED");
    expect(sn.balanceOf(token, alice.address)).toBe(AMOUNT);
    expect(sn.balanceOf(token, htlc)).toBe(0n);
    expect(sn.balanceOf(sn.feeToken, alice.address)).toBe(strk - fee(refund));
  });

  it("initiates with the initiator's SNIP-12 signature, funded by the initiator, sent by another", async () => {
    const s = (setup = await startSetup(layout));
    const { alice, bob, sn, token, htlc } = s;
    const carol = sn.createAccount();
    sn.mint(token, alice.address, AMOUNT);
    await mined(sn, alice, [approveCall(token, htlc, AMOUNT)]);
    const { hashWords } = secretPair();
    const signature = alice.account.signMessage(
      initiateTypedData({
        layout,
        chainId: BigInt(sn.chainId),
        htlc: BigInt(htlc),
        redeemer: BigInt(carol.address),
        amount: AMOUNT,
        timelock: TIMELOCK,
        secretHashWords: hashWords,
      }),
    );
    const aliceStrk = sn.balanceOf(sn.feeToken, alice.address);
    const receipt = await mined(sn, bob, [
      {
        to: htlc,
        entrypoint: "initiate_with_signature",
        calldata: [alice.address, carol.address, TIMELOCK, AMOUNT, 0n, ...hashWords, 2n, ...signature],
      },
    ]);
    expect(receipt.execution_status).toBe("SUCCEEDED");
    expect(sn.balanceOf(token, alice.address)).toBe(0n);
    expect(sn.balanceOf(token, htlc)).toBe(AMOUNT);
    expect(sn.balanceOf(sn.feeToken, alice.address)).toBe(aliceStrk);
    const id = expectedOrderId(
      layout,
      BigInt(sn.chainId),
      alice.address,
      carol.address,
      TIMELOCK,
      AMOUNT,
      hashWords,
      htlc,
    );
    expect(BigInt(receipt.events.find((e) => e.from_address === htlc)?.keys[1] ?? 0)).toBe(id);
  });
});

describe("the published example order", () => {
  it("reproduces the service's swap id with the deployed layout, and its typed data's types", () => {
    const secretHash = "e7b213af79add7fb7457238fc65df61cb4dea13b3ae374f1b5c69538e5fcb98a";
    const words = Array.from({ length: 8 }, (_, i) => BigInt(`0x${secretHash.slice(i * 8, i * 8 + 8)}`));
    const id = orderId("deployed", {
      chainId: BigInt(shortString.encodeShortString("SN_SEPOLIA")),
      initiator: 0x00609190b1348bcc06da44d58c79709495c11a5a6f0b9e154e1209f2a17dd933n,
      redeemer: 0x078f8ae98fe78b5df9d3755b5910864c028d5249b4af685eb45687b1b76a4205n,
      timelock: 2880n,
      amount: 50000n,
      secretHashWords: words,
      htlc: 0x06579d255314109429a4477d89629bc2b94f529ae01979c2f8014f9246482603n,
    });
    expect(id.toString(16)).toBe("61ea20c8abf2a327035c2bc1170b3d32a13b271f14ad5a3739f995ce9a54ebf");
    expect(hash.getSelectorFromName("initiate")).toBe(
      "0x2aed25fcd0101fcece997d93f9d0643dfa3fbd4118cae16bf7d6cd533577c28",
    );
    const typed = initiateTypedData({
      layout: "deployed",
      chainId: BigInt(shortString.encodeShortString("SN_SEPOLIA")),
      htlc: 0n,
      redeemer: 0x078f8ae98fe78b5df9d3755b5910864c028d5249b4af685eb45687b1b76a4205n,
      amount: 50000n,
      timelock: 2880n,
      secretHashWords: words,
    });
    expect(typed.types.Initiate?.map((f) => `${f.name}:${f.type}`)).toEqual([
      "redeemer:ContractAddress",
      "amount:u256",
      "timelock:u128",
      "secretHash:u128*",
    ]);
    expect(typed.domain).toEqual({ name: "HTLC", version: "1", chainId: "SN_SEPOLIA", revision: "1" });
  });
});
