/**
 * Bitcoin sources the solver declines, here because the source timelock (600 blocks of 1 s) is too short
 * for an EVM destination (600 s) plus the solver's 10 minute margin. With an owner address the solver
 * hands its half of an instant refund to the service, which completes it; the user broadcasts it.
 * Without one, the user asks the service to refund once the lock has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsOf, bitcoinTx, BTC } from "./bitcoin-support.js";

const SOURCE_TIMELOCK = 600;

describe("declined Bitcoin sources", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet({ bitcoinSourceTimelock: SOURCE_TIMELOCK });
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("get an instant refund the user broadcasts", async () => {
    const user = t.user(0);
    const quote = await user.bestQuote(BTC, "arbitrum_localnet:usdc", 1_500_000n);
    const order = await user.createOrder(quote);
    const before = await user.balance(BTC);
    await user.fundBitcoinSource(order);
    const offered = await user.waitForOrder(
      order.order_id,
      (o) => o.source_swap.instant_refund_tx !== undefined,
      {
        timeoutMs: 120_000,
      },
    );
    const txid = await user.broadcastInstantRefund(offered);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.source_swap.refund_block_number !== "0",
      {
        timeoutMs: 60_000,
      },
    );
    expect(refunded.status).toBe("Refunded");
    expect(refunded.source_swap.refund_tx_hash).toBe(txid);
    expect(refunded.destination_swap.initiate_tx_hash).toBe("");
    const refund = await bitcoinTx(t, txid);
    expect(refund.vout.every((out) => out.scriptPubKey.address === user.bitcoin.address)).toBe(true);
    // The user is out only the fees of the deposit and of the refund.
    const lost = before - (await user.balance(BTC));
    expect(lost).toBeGreaterThan(0n);
    expect(lost).toBeLessThan(2_000n);
    expect(actionsOf(t, order.order_id).map(([kind]) => kind)).toEqual(["instant_refund"]);
  });

  it("without an owner address, are refunded through the service after the lock", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote(BTC, "ethereum_localnet:usdc", 700_000n);
    const order = await user.createOrder(quote, { withoutSourceOwner: true });
    expect(order.source_swap.initiator).toBe("");
    await user.fundBitcoinSource(order);
    const funded = await user.waitForOrder(order.order_id, (o) => o.status === "Initiated", {
      timeoutMs: 60_000,
    });
    await expect(user.requestBitcoinRefund(funded)).rejects.toThrow(/can be refunded from block/);

    const fundedAt = Number(funded.source_swap.initiate_block_number);
    const tip = await t.net.bitcoin.rpc.getBlockCount();
    await t.net.bitcoin.mine(fundedAt + SOURCE_TIMELOCK - tip);
    const txid = await user.requestBitcoinRefund(funded);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.source_swap.refund_block_number !== "0",
      {
        timeoutMs: 60_000,
      },
    );
    expect(refunded.source_swap.refund_tx_hash).toBe(txid);
    const refund = await bitcoinTx(t, txid);
    expect(refund.vout[0]?.scriptPubKey.address).toBe(user.bitcoin.address);
    expect(actionsOf(t, order.order_id).map(([kind]) => kind)).toEqual([]);
  });
});
