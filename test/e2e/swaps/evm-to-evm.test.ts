import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedAmount } from "../../support/quote-drift.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { chargedUnits } from "../../support/network-fees.js";

const completed = (o: {
  source_swap: { redeem_tx_hash: string };
  destination_swap: { redeem_tx_hash: string };
}) => o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "";

describe("EVM to EVM swaps on two local chains", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    const started = Date.now();
    await t?.net.stop();
    console.log(`stopped in ${Date.now() - started} ms`);
  });

  it("ERC20 -> ERC20 initiated with the user's EIP-712 signature completes", async () => {
    const user = t.user(0);
    const from = "ethereum_localnet:usdc";
    const to = "arbitrum_localnet:usdc";
    const before = await user.balance(to);
    const quote = await user.bestQuote(from, to, 250_000_000n);
    // 30 bps fee, then the network fees and minimum profit the quote states.
    const quoted = 249_250_000n - chargedUnits(quote.fixed_fee, 6);
    expect(chargedUnits(quote.fixed_fee, 6)).toBeGreaterThan(0n);
    expect(BigInt(quote.destination.amount)).toBe(quoted);
    const order = await user.createOrder(quote);
    const started = Date.now();
    await user.initiateWithSignature(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
    console.log(`erc20 swap: initiate to source redeem in ${Date.now() - started} ms`);
    expect(done.destination_swap.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await user.balance(to)).toBe(before + orderedAmount(order, quoted));
    // The order shows the redeem once mined; the solver marks it confirmed on its next round.
    const journal = t.net.solver!.journal;
    await waitFor(
      () => journal.orderActions(order.order_id).every((a) => a.status === "confirmed"),
      "the solver's actions to confirm",
    );
    const actions = journal.orderActions(order.order_id);
    expect(actions.map((a) => [a.kind, a.status])).toEqual([
      ["fill", "confirmed"],
      ["redeem", "confirmed"],
    ]);
  });

  it("native coin -> ERC20 initiated on chain completes", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote("ethereum_localnet:eth", "arbitrum_localnet:usdc", 10n ** 17n);
    expect(BigInt(quote.destination.amount)).toBe(299_100_000n - chargedUnits(quote.fixed_fee, 6));
    const order = await user.createOrder(quote);
    await user.initiateOnChain(order);
    const done = await user.waitForOrder(order.order_id, (o) => completed(o) && o.status === "Redeemed", {
      timeoutMs: 90_000,
    });
    expect(done.source_swap.redeem_tx_hash).not.toBe("");
  });
});
