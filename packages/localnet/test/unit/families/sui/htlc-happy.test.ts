import { afterEach, describe, expect, it } from "vitest";
import { bareHex } from "../../../../src/families/sui/chain/bytes.js";
import { gasPaid, HOUR_MS, initiated, ONE_SUI, startSetup, statusOf, SUI, type Setup } from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

interface OrderField {
  data: {
    previousTransaction: string;
    content: {
      fields: {
        value: { fields: { is_fulfilled: boolean; amount: string; coins: { fields: { balance: string } } } };
      };
    };
  };
}

describe("AtomicSwap happy paths", () => {
  it("initiates and redeems: the Redeemed event carries the secret, the field points at the redeem, balances move exactly", async () => {
    const s = (setup = await startSetup());
    const aliceBefore = s.sui.balanceOf(SUI, s.alice.address);
    const bobBefore = s.sui.balanceOf(SUI, s.bob.address);
    const { swap, response: init } = await initiated(s, 2n * ONE_SUI);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(aliceBefore - 2n * ONE_SUI - gasPaid(init));
    const initEvent = init.events!.find((e) => e.type === `${s.sui.packageId}::AtomicSwap::Initiated`)!;
    expect(initEvent.parsedJson).toEqual({
      order_id: Array.from(swap.orderId),
      secret_hash: Array.from(swap.secretHash),
      amount: (2n * ONE_SUI).toString(),
      destination_data: [],
    });

    // Carol sends the redeem; the coins go to Bob, the redeemer.
    const redeem = await s.carol.redeem(s.registry, SUI, swap.orderId, swap.secret);
    expect(statusOf(redeem)).toBe("success");
    expect(s.sui.balanceOf(SUI, s.bob.address)).toBe(bobBefore + 2n * ONE_SUI);
    const redeemed = redeem.events!.find((e) => e.type === `${s.sui.packageId}::AtomicSwap::Redeemed`)!;
    expect(redeemed.parsedJson).toEqual({
      order_id: Array.from(swap.orderId),
      secret_hash: Array.from(swap.secretHash),
      secret: Array.from(swap.secret),
    });

    const field = await s.alice.rpc<OrderField>("suix_getDynamicFieldObject", [
      s.registry.registryId,
      { type: "vector<u8>", value: Array.from(swap.orderId) },
    ]);
    expect(field.data.previousTransaction).toBe(redeem.digest);
    expect(field.data.content.fields.value.fields.is_fulfilled).toBe(true);
    expect(field.data.content.fields.value.fields.coins.fields.balance).toBe("0");
    expect(bareHex(swap.orderId)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refunds after expiry to the initiator, sent by anyone", async () => {
    const s = (setup = await startSetup());
    const { swap, response: init } = await initiated(s, ONE_SUI, HOUR_MS);
    const aliceAfterInit = s.sui.balanceOf(SUI, s.alice.address);
    s.sui.advanceClock(HOUR_MS + 1n);
    const refund = await s.carol.refund(s.registry, SUI, swap.orderId);
    expect(statusOf(refund)).toBe("success");
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(aliceAfterInit + ONE_SUI);
    expect(refund.events!.map((e) => e.type)).toEqual([`${s.sui.packageId}::AtomicSwap::Refunded`]);
    expect(init.effects!.status.status).toBe("success");
  });

  it("instant refund by the redeemer pays the initiator back at once", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    const aliceAfterInit = s.sui.balanceOf(SUI, s.alice.address);
    const bobBefore = s.sui.balanceOf(SUI, s.bob.address);
    const refund = await s.bob.instantRefund(s.registry, SUI, swap.orderId);
    expect(statusOf(refund)).toBe("success");
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(aliceAfterInit + ONE_SUI);
    expect(s.sui.balanceOf(SUI, s.bob.address)).toBe(bobBefore - gasPaid(refund));
  });
});
