/**
 * A Bitcoin HTLC address paid again after its swap closed: the source's deposit address after the solver
 * redeemed it, and the destination's address after the user redeemed the fill. An address is a script,
 * not an account that closes: the new output is a fresh lock of the same terms, with a secret now public.
 * The solver neither fills again nor takes it, and each new output goes back to the one who paid it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildRefundTx } from "../../../src/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "../../../src/chains/bitcoin/keys.js";
import { sourceHtlc } from "@htlc-solver/localnet/families/bitcoin/user-bitcoin.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  redeemAndSettle,
  serviceKeyOf,
  solverHolds,
  solverRounds,
  type AttackNet,
} from "../support/attack-net.js";
import { confirmedAt, minedBitcoin, minedFee } from "../support/bitcoin-moves.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "ethereum_localnet:usdc";
const SETTLED = ["fill:confirmed", "redeem:confirmed"];

export function bitcoinReuseAfterClose(net: () => AttackNet): void {
  let t: AttackNet;
  beforeAll(() => {
    t = net();
  });

  /** Both of the solver's holdings of this swap's pair. */
  const solverPair = async () => ({ btc: await solverHolds(t, BTC), usdc: await solverHolds(t, USDC) });

  /** Pays `value` to `address` from the user's wallet, waits it into a block and lets the solver look. */
  async function payAgain(order: Order, address: string, value: bigint, userIndex: number) {
    const paid = await t.user(userIndex).bitcoin.pay([{ address, value }]);
    await minedBitcoin(t, paid);
    await t.net.bitcoin.mine(2);
    await solverRounds(t, 4);
    // The order stays as it closed: no second fill, no redeem or refund of the new output.
    expect(journaled(t, order)).toEqual(SETTLED);
    return paid;
  }

  describe("bitcoin: the source deposit address paid again after the solver redeemed it", () => {
    it("is no new source: nothing is filled, the solver leaves it, and the user refunds it after its lock", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(BTC, USDC, 1_000_000n), { secretHash });
      const htlc = sourceHtlc(order.source_swap, "regtest");
      await user.fundBitcoinSource(order);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land", 60_000);
      await redeemAndSettle(t, user, order, secret);

      const solver = await solverPair();
      const userBtc = await confirmedAt(t, user.bitcoin.address);
      const value = 700_000n;
      const again = await payAgain(order, htlc.address, value, 0);
      expect(await solverPair()).toEqual(solver);

      // The new output pays the same script: the solver's key with the secret (public since the user's
      // redeem), or the source's initiator key once its relative lock has passed. The solver's redeem of
      // this order is done and it claims nothing more; the initiator key, which the service holds for the
      // user, takes it back.
      const outputs = await user.bitcoin.outputsOf(htlc.address);
      const output = outputs.find((o) => o.txid === again);
      expect(output?.spentBy).toBeNull();
      await t.net.bitcoin.mine(htlc.timelock);
      const refund = buildRefundTx(
        [{ htlc, txid: again, vout: output!.vout, value }],
        BitcoinKey.fromHex(serviceKeyOf(t, order.source_swap.swap_id)),
        user.bitcoin.key.walletPayment(htlc.network).output,
        2n,
      );
      await t.net.bitcoin.rpc.sendRawTransaction(refund.tx.toHex());
      await minedBitcoin(t, refund.tx.getId());
      await solverRounds(t, 2);

      expect(journaled(t, order)).toEqual(SETTLED);
      expect(await solverPair()).toEqual(solver);
      // The user is out only the two fees of paying and taking back.
      expect(await confirmedAt(t, user.bitcoin.address)).toBe(
        userBtc - (await minedFee(t, again)) - (await minedFee(t, refund.tx.getId())),
      );
    });
  });

  describe("bitcoin: the destination address paid again after the user redeemed the fill", () => {
    it("is no fill and no refund of the solver's: the solver leaves it, the user redeems it back", async () => {
      const user = t.user(1);
      const { secret, secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(USDC, BTC, 60_000_000n), { secretHash });
      const address = order.destination_swap.swap_id;
      await user.initiateWithSignature(order);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land", 60_000);
      const filled = await user.waitForOrder(
        order.order_id,
        (o) => o.destination_swap.initiate_tx_hash !== "",
      );
      await minedBitcoin(t, await user.redeemBitcoinDestination(filled, secret));
      await waitFor(() => journaled(t, order).includes("redeem:confirmed"), "the source redeem", 60_000);

      const solver = await solverPair();
      const userBtc = await confirmedAt(t, user.bitcoin.address);
      const value = 50_000n;
      const again = await payAgain(order, address, value, 1);
      expect(await solverPair()).toEqual(solver);

      // The new output is the user's to redeem with the secret they revealed, and the solver's to refund
      // only once its lock passes; the solver refunds only its own fill, long spent, so it stays the user's.
      const output = (await user.bitcoin.outputsOf(address)).find((o) => o.txid === again);
      expect(output?.spentBy).toBeNull();
      const back = await user.redeemBitcoinDestination(filled, secret);
      await minedBitcoin(t, back);
      expect((await user.bitcoin.outputsOf(address)).find((o) => o.txid === again)?.spentBy?.txid).toBe(back);
      await solverRounds(t, 2);

      expect(journaled(t, order)).toEqual(SETTLED);
      expect(await solverPair()).toEqual(solver);
      expect(await confirmedAt(t, user.bitcoin.address)).toBe(
        userBtc - (await minedFee(t, again)) - (await minedFee(t, back)),
      );
    }, 120_000);
  });
}
