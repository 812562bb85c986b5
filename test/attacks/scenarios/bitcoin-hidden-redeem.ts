/**
 * The user hides the redeem of the solver's Bitcoin fill while the service says nothing of it: the fill's
 * address flooded with dozens of outputs first (some never mined), or the redeem made as one input among
 * the user's other spends. The solver follows its own fill's output to whatever spends it and reads the
 * secret in that input's witness.
 */
import type { Transaction } from "bitcoinjs-lib";
import { beforeAll, describe, expect, it } from "vitest";
import type { FundingOutput } from "../../../src/chains/bitcoin/backend.js";
import { destinationHtlc } from "@htlc-solver/localnet/families/bitcoin/user-bitcoin.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { bitcoinFeeOf } from "../../support/memory-journal.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, solverHolds, type AttackNet } from "../support/attack-net.js";
import {
  flood,
  mineOnlyAbove,
  minedBitcoin,
  minedFee,
  spendTogether,
  type SpentOutput,
} from "../support/bitcoin-moves.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "ethereum_localnet:usdc";
const FLOOD_VALUE = 1_000n;

export function bitcoinHiddenRedeem(net: () => AttackNet): void {
  let t: AttackNet;
  beforeAll(() => {
    t = net();
  });

  /** The solver sees no secret and no redeem of the order at the service: what it learns, it reads on chain. */
  function serviceSaysNothingOfTheRedeem(order: Order): void {
    t.proxy.lieAbout(order.order_id, (lied) => {
      for (const swap of [lied.source_swap, lied.destination_swap]) {
        swap.secret = "";
        swap.redeem_tx_hash = "";
      }
      if (lied.status === "Redeemed" || lied.status === "RedeemDetected") lied.status = "AwaitingRedeem";
    });
  }

  /** An EVM -> BTC order with the user's secret, filled by the solver; the service lies from then on. */
  async function filledOrder(user: LocalUser, usdc: bigint) {
    const { secret, secretHash } = newUserSecret();
    const order = await user.createOrder(await user.bestQuote(USDC, BTC, usdc), { secretHash });
    const before = {
      btc: await solverHolds(t, BTC),
      usdc: await solverHolds(t, USDC),
      userUsdc: await user.balance(USDC),
    };
    await user.initiateWithSignature(order);
    await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land", 60_000);
    const filled = await user.waitForOrder(order.order_id, (o) => o.destination_swap.initiate_tx_hash !== "");
    serviceSaysNothingOfTheRedeem(order);
    const journal = t.net.solver!.journal;
    const fillAction = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
    const fill = journal.attemptsOfAction(fillAction.id).find((a) => a.state === "confirmed")!;
    const htlc = destinationHtlc(filled.destination_swap, "regtest");
    const amount = BigInt(order.destination_swap.amount);
    const vout = (await user.bitcoin.outputsOf(htlc.address)).find((o) => o.txid === fill.txHash)!.vout;
    const fillOutput = {
      kind: "redeem" as const,
      htlc,
      txid: fill.txHash,
      vout,
      value: amount,
      secret: Buffer.from(secret.slice(2), "hex"),
    };
    return { user, order, secret, before, fill, fillOutput, amount };
  }

  /**
   * The solver redeemed its source with the secret it read on chain, and each side has its fair share.
   * `redeem` is the user's transaction that took the fill, with `others` satoshis of other inputs.
   */
  async function settledFairly(
    filled: Awaited<ReturnType<typeof filledOrder>>,
    redeem: Transaction,
    others: bigint,
  ): Promise<void> {
    const { order, secret, before, fill, amount } = filled;
    await waitFor(
      () => journaled(t, order).includes("redeem:confirmed"),
      "the solver's source redeem",
      45_000,
    );
    const sourceRedeem = t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
    expect(sourceRedeem?.request.secret).toBe(secret.slice(2));
    t.proxy.stopLying(order.order_id);
    // Solver: paid the fill and its fee, was paid the whole source.
    expect(await solverHolds(t, BTC)).toBe(before.btc - amount - bitcoinFeeOf(fill));
    expect(await solverHolds(t, USDC)).toBe(before.usdc + BigInt(order.source_swap.amount));
    // User: paid the source, and took the fill (less the fee of the transaction that redeemed it).
    expect(before.userUsdc - (await filled.user.balance(USDC))).toBe(BigInt(order.source_swap.amount));
    expect(redeem.outs).toHaveLength(1);
    expect(BigInt(redeem.outs[0]!.value)).toBe(amount + others - (await minedFee(t, redeem.getId())));
  }

  describe("bitcoin: the fill's address flooded with outputs, some unmined, then a redeem the service hides", () => {
    it("hides nothing: the solver finds the redeem among them and redeems its source", async () => {
      const user = t.user(0);
      const filled = await filledOrder(user, 50_000_000n);
      const address = filled.fillOutput.htlc.address;
      // Sixty outputs mined, then twenty more at a rate no block takes while the fill is redeemed.
      const mined = { transactions: 3, perTransaction: 20, value: FLOOD_VALUE, feeRateSatVb: 2n, mine: true };
      await flood(t, user, address, mined);
      const restore = mineOnlyAbove(t, 3n);
      try {
        const unmined = { ...mined, transactions: 1, feeRateSatVb: 1n, mine: false };
        await flood(t, user, address, unmined);
        const outputs = await user.bitcoin.outputsOf(address);
        expect(outputs.filter((o) => o.value === FLOOD_VALUE)).toHaveLength(80);
        expect(outputs.filter((o) => o.height === null)).toHaveLength(20);
        const redeem = spendTogether(user, [filled.fillOutput], 5n);
        await minedBitcoin(t, await user.bitcoin.broadcast(redeem.toHex()));
        await settledFairly(filled, redeem, 0n);
      } finally {
        restore();
      }
      // The flood is the user's own money, still at the address: theirs to redeem with the secret.
      const left = (await user.bitcoin.outputsOf(address)).filter((o) => o.spentBy === null);
      expect(left.map((o) => o.value)).toEqual(Array.from({ length: 80 }, () => FLOOD_VALUE));
    });
  });

  describe("bitcoin: the fill redeemed in one transaction with the user's other spends, the service silent", () => {
    it("hides nothing: the solver reads the secret from the fill's input and redeems its source", async () => {
      const user = t.user(1);
      const filled = await filledOrder(user, 40_000_000n);
      const wallet = (await user.bitcoin.outputsOf(user.bitcoin.address))
        .filter((o) => o.spentBy === null && o.height !== null)
        .slice(0, 2);
      expect(wallet).toHaveLength(2);
      // The fill's input between two of the user's own: the redeem is neither the first input nor alone.
      const spent: SpentOutput[] = [
        { kind: "wallet", ...pick(wallet[0]!) },
        filled.fillOutput,
        { kind: "wallet", ...pick(wallet[1]!) },
      ];
      const redeem = spendTogether(user, spent, 5n);
      await minedBitcoin(t, await user.bitcoin.broadcast(redeem.toHex()));
      await settledFairly(filled, redeem, wallet[0]!.value + wallet[1]!.value);
    });
  });
}

function pick(output: FundingOutput): { txid: string; vout: number; value: bigint } {
  return { txid: output.txid, vout: output.vout, value: output.value };
}
