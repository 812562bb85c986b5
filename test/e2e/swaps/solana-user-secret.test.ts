/**
 * A client that keeps its own secret, with a Solana destination: when it redeems, the solver reads the
 * secret from the Solana chain and redeems its source; when it never does, the solver refunds its SOL
 * fill once the fill's timelock (slots) has passed. Both sides' balances are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled } from "./bitcoin-support.js";
import { htlcEventsOf, SOL, solverSolana } from "./solana-support.js";

const SOURCE = "ethereum_localnet:usdc";

describe("a client holding its own secret, with a Solana destination", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  const solverSource = () => t.net.solver!.chains.get("ethereum_localnet")!.executor.balance(SOURCE);

  it("redeems the SOL itself, and the solver takes the secret from the Solana chain", async () => {
    const user = t.user(0);
    const { secret, secretHash } = newUserSecret();
    const quote = await user.bestQuote(SOURCE, SOL, 150_000_000n);
    const amount = BigInt(quote.destination.amount);
    const order = await user.createOrder(quote, { secretHash });
    expect(order.additional_data.user_secret).toBe(true);
    const [userSol, solverSol, solverUsdc] = [
      await user.balance(SOL),
      await solverSolana(t, SOL),
      await solverSource(),
    ];
    await user.initiateWithSignature(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
      { timeoutMs: 60_000 },
    );
    // The service must not redeem for a client that holds its own secret.
    expect(filled.destination_swap.redeem_tx_hash).toBe("");
    const redeemTx = await user.redeemSolanaDestination(filled, secret);
    const done = await user.waitForOrder(order.order_id, (o) => o.source_swap.redeem_tx_hash !== "", {
      timeoutMs: 60_000,
    });
    expect(done.destination_swap.secret).toBe(secret.slice(2));
    const redeemOf = () =>
      t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
    await waitFor(() => redeemOf()?.status === "confirmed", "the solver's redeem to confirm");
    expect(redeemOf()?.request.secret).toBe(secret.slice(2));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);

    const events = htlcEventsOf(t, done.destination_swap);
    expect(events.map((e) => [e.name, e.signature])).toEqual([
      ["Initiated", done.destination_swap.initiate_tx_hash],
      ["Redeemed", redeemTx],
    ]);
    // The user paid its redeem's fee; the solver paid its fill's and got the swap data's rent back.
    expect((await user.balance(SOL)) - userSol).toBe(amount - events[1]!.fee);
    expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + events[0]!.fee);
    expect((await solverSource()) - solverUsdc).toBe(150_000_000n);
  });

  it("never redeems, and the solver refunds its SOL fill once the fill's slots have passed", async () => {
    const user = t.user(1);
    const { secretHash } = newUserSecret();
    const quote = await user.bestQuote(SOURCE, SOL, 150_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    const [userSol, solverSol, solverUsdc] = [
      await user.balance(SOL),
      await solverSolana(t, SOL),
      await solverSource(),
    ];
    await user.initiateWithSignature(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
      { timeoutMs: 60_000 },
    );
    await actionsSettled(t, order.order_id, ["fill"]);
    expect(solverSol - (await solverSolana(t, SOL))).toBeGreaterThan(BigInt(filled.destination_swap.amount));

    t.net.solana.local.advanceSlots(BigInt(filled.destination_swap.timelock) + 1n);
    const refundOf = () =>
      t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "refund");
    await waitFor(() => refundOf()?.status === "confirmed", "the solver's refund to confirm", 60_000);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.refund_tx_hash !== "",
      {
        timeoutMs: 30_000,
      },
    );
    expect(refunded.destination_swap.redeem_tx_hash).toBe("");

    const events = htlcEventsOf(t, refunded.destination_swap);
    expect(events.map((e) => e.name)).toEqual(["Initiated", "Refunded"]);
    // The amount and the rent came back: the solver is out only its two fees. The user got nothing,
    // and the solver never redeemed the source (it never learned the secret).
    expect(solverSol - (await solverSolana(t, SOL))).toBe(events[0]!.fee + events[1]!.fee);
    expect(await user.balance(SOL)).toBe(userSol);
    expect(await solverSource()).toBe(solverUsdc);
  });
});
