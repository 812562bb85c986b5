/**
 * Bitcoin swaps through the API as a user makes them, against the solver on the localnet: BTC to an
 * EVM token, an EVM token to BTC, and a Bitcoin source paid in two separate transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedAmount } from "../../support/quote-drift.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsOf, actionsSettled, bitcoinTx, BTC, completed } from "./bitcoin-support.js";
import { chargedUnits } from "../../support/network-fees.js";

describe("Bitcoin swaps on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("BTC -> EVM token: the user pays the deposit address and receives the token", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const quote = await user.bestQuote(BTC, to, 1_000_000n);
    // 0.01 BTC at 60000, less 30 bps and the network fees the quote states.
    const quoted = 598_200_000n - chargedUnits(quote.fixed_fee, 6);
    expect(BigInt(quote.destination.amount)).toBe(quoted);
    const order = await user.createOrder(quote);
    expect(order.source_swap.initiator).toBe(user.bitcoin.address);
    const before = await user.balance(to);
    const started = Date.now();
    await user.fundBitcoinSource(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    console.log(`btc -> evm: deposit to source redeem in ${Date.now() - started} ms`);
    expect(await user.balance(to)).toBe(before + orderedAmount(order, quoted));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(actionsOf(t, order.order_id)).toEqual([
      ["fill", "confirmed"],
      ["redeem", "confirmed"],
    ]);
    const redeem = await bitcoinTx(t, done.source_swap.redeem_tx_hash);
    expect(redeem.vout[0]?.scriptPubKey.address).toBe(t.net.descriptor.solver.bitcoinAddress);
  });

  it("EVM token -> BTC: the service redeems the Bitcoin destination to the user's address", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote("ethereum_localnet:usdc", BTC, 120_000_000n);
    const amount = BigInt(quote.destination.amount);
    expect(amount).toBe(199_400n - chargedUnits(quote.fixed_fee, 8)); // 120 USDC at 60000 per BTC, less 30 bps and fees
    const order = await user.createOrder(quote);
    expect(order.destination_swap).toMatchObject({
      initiator: t.net.descriptor.solver.bitcoinKey,
      redeemer: user.bitcoin.address,
    });
    const before = await user.balance(BTC);
    await user.initiateWithSignature(order);
    const done = await user.waitForOrder(order.order_id, (o) => completed(o) && o.status === "Redeemed", {
      timeoutMs: 120_000,
    });
    const received = (await user.balance(BTC)) - before;
    // The service's redeem pays its fee out of the HTLC.
    expect(received).toBeGreaterThan(amount - 1_000n);
    expect(received).toBeLessThan(amount);
    expect(done.destination_swap.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a Bitcoin source paid in two separate transactions is redeemed in full", async () => {
    const user = t.user(2);
    const quote = await user.bestQuote(BTC, "ethereum_localnet:eth", 2_000_000n);
    const order = await user.createOrder(quote);
    const txids = await user.fundBitcoinSource(order, [1_200_000n, 800_000n]);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    const listed = done.source_swap.initiate_tx_hash.split(",").map((entry) => entry.split(":")[0]);
    expect(listed.sort()).toEqual([...txids].sort());
    expect(done.source_swap.filled_amount).toBe("2000000");
    const redeem = await bitcoinTx(t, done.source_swap.redeem_tx_hash);
    expect(redeem.vin.map((input) => input.txid).sort()).toEqual([...txids].sort());
    const paid = redeem.vout.reduce((sum, out) => sum + out.valueSats, 0n);
    expect(paid).toBeGreaterThan(2_000_000n - 2_000n);
  });
});
