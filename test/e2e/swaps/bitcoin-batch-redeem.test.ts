/**
 * Ten Bitcoin sources, funded by one transaction, redeemed by the solver in one transaction. The ten
 * secrets must reach the solver in the same round: the users keep their secrets and redeem the EVM
 * destinations while the solver is stopped, then the solver starts again and finds all ten at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type UserSecret } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled, bitcoinTx, BTC, completed } from "./bitcoin-support.js";

const ORDERS = 10;

describe("batched Bitcoin redeems", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("redeems ten funded sources in one transaction with ten inputs", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const swaps: { order: Order; secret: UserSecret }[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const secret = newUserSecret();
      const quote = await user.bestQuote(BTC, to, 100_000n + BigInt(i) * 1_000n);
      swaps.push({ order: await user.createOrder(quote, { secretHash: secret.secretHash }), secret });
    }
    const funding = await user.fundBitcoinSources(swaps.map((s) => s.order));
    const filled = await Promise.all(
      swaps.map(({ order }) =>
        user.waitForOrder(order.order_id, (o) => o.destination_swap.current_confirmations >= 1, {
          timeoutMs: 120_000,
        }),
      ),
    );
    expect(filled.every((o) => o.source_swap.initiate_tx_hash.startsWith(`${funding}:`))).toBe(true);

    await t.net.solver!.stop();
    for (const [i, { secret }] of swaps.entries()) await user.redeemDestination(filled[i]!, secret.secret);
    await Promise.all(
      swaps.map(({ order }) =>
        user.waitForOrder(order.order_id, (o) => o.destination_swap.redeem_block_number !== "0"),
      ),
    );
    await t.net.startSolver();

    const done = await Promise.all(
      swaps.map(({ order }) => user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 })),
    );
    const redeemTxids = new Set(done.map((o) => o.source_swap.redeem_tx_hash));
    expect(redeemTxids.size).toBe(1);
    const redeem = await bitcoinTx(t, [...redeemTxids][0]!);
    console.log(
      `batched redeem of ${redeem.vin.length} Bitcoin sources: ${redeem.vsize} vbytes, ${redeem.weight} weight units`,
    );
    expect(redeem.vin).toHaveLength(ORDERS);
    expect(redeem.vin.every((input) => input.txid === funding)).toBe(true);
    expect(redeem.vout).toHaveLength(1);
    for (const { order } of swaps) await actionsSettled(t, order.order_id, ["fill", "redeem"]);
  });
});
