import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { mineBlocks, startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";

describe("a client that keeps its own secret", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("redeems the destination itself, and the solver takes the secret from the chain", async () => {
    const user = t.user(0);
    const { secret, secretHash } = newUserSecret();
    const quote = await user.bestQuote("arbitrum_localnet:usdc", "ethereum_localnet:usdc", 100_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    expect(order.additional_data.user_secret).toBe(true);
    await user.initiateOnChain(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
    );
    // The service must not redeem for a client that holds its own secret.
    expect(filled.destination_swap.redeem_tx_hash).toBe("");
    await user.redeemDestination(filled, secret);
    const done = await user.waitForOrder(order.order_id, (o) => o.source_swap.redeem_tx_hash !== "");
    expect(done.destination_swap.secret).toBe(secret.slice(2));
    const redeemOf = () =>
      t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
    await waitFor(() => redeemOf()?.status === "confirmed", "the solver's redeem to confirm");
    const redeem = redeemOf();
    expect(redeem?.request.secret).toBe(secret.slice(2));
  });

  it("never redeems, and the solver refunds its fill once the destination timelock has passed", async () => {
    const user = t.user(1);
    const { secretHash } = newUserSecret();
    const quote = await user.bestQuote("ethereum_localnet:usdc", "arbitrum_localnet:usdc", 100_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    await user.initiateOnChain(order);
    await user.waitForOrder(order.order_id, (o) => o.destination_swap.current_confirmations >= 1);
    const solver = t.net.solver!;
    const balanceAfterFill = await solver.chains
      .get("arbitrum_localnet")!
      .executor.balance("arbitrum_localnet:usdc");

    await mineBlocks(t.net.anvils.get("arbitrum_localnet")!.rpcUrl, order.destination_swap.timelock + 1);
    await waitFor(
      () =>
        solver.journal.orderActions(order.order_id).find((a) => a.kind === "refund")?.status === "confirmed",
      "the solver's refund to confirm",
    );
    const balanceAfterRefund = await solver.chains
      .get("arbitrum_localnet")!
      .executor.balance("arbitrum_localnet:usdc");
    expect(balanceAfterRefund - balanceAfterFill).toBe(BigInt(order.destination_swap.amount));
    const refunded = await user.waitForOrder(order.order_id, (o) => o.destination_swap.refund_tx_hash !== "");
    expect(refunded.destination_swap.redeem_tx_hash).toBe("");
  });
});
