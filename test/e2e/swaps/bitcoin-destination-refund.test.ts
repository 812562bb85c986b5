/**
 * A Bitcoin destination the user never redeems: once its CSV timelock has passed, the solver takes its
 * fill back through the refund leaf.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { actionsOf, bitcoinTx, BTC } from "./bitcoin-support.js";

describe("an unredeemed Bitcoin destination", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    // The user keeps the secret (and never redeems); the solver must be allowed to fill such an order.
    t = await startTestLocalnet({ startSolver: false });
    const config = t.net.solverConfig;
    await t.net.startSolver({ ...config, safety: { ...config.safety, allowUnenforcedSecretLength: true } });
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("is refunded by the solver after its timelock", async () => {
    const user = t.user(1);
    const { secretHash } = newUserSecret();
    const quote = await user.bestQuote("ethereum_localnet:usdc", BTC, 90_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    expect(order.destination_swap.delegate).toBe(user.bitcoin.xOnlyKey);
    await user.initiateWithSignature(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
      { timeoutMs: 120_000 },
    );
    const fundedAt = Number(filled.destination_swap.initiate_block_number);
    const timelock = filled.destination_swap.timelock;
    expect(timelock).toBe(144);

    const tip = await t.net.bitcoin.rpc.getBlockCount();
    await t.net.bitcoin.mine(fundedAt + timelock - tip);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.refund_block_number !== "0",
      { timeoutMs: 120_000 },
    );
    expect(refunded.status).toBe("Refunded");
    expect(refunded.destination_swap.redeem_tx_hash).toBe("");
    const refund = await bitcoinTx(t, refunded.destination_swap.refund_tx_hash);
    // CSV: version 2 and the input's nSequence equal to the timelock.
    expect(refund.version).toBe(2);
    expect(refund.vin[0]?.sequence).toBe(timelock);
    expect(refund.vout[0]?.scriptPubKey.address).toBe(t.net.descriptor.solver.bitcoinAddress);
    await waitFor(
      () =>
        actionsOf(t, order.order_id).some(([kind, status]) => kind === "refund" && status === "confirmed"),
      "the solver's refund to confirm",
    );
  });
});
