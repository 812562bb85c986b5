/**
 * Attacks on the solver through a Bitcoin destination (the solver's own Bitcoin fills), on the
 * localnet, each checked on both sides' balances: dust paid to the destination address before the
 * fill, an output paid there late that is not yet past its relative lock when the fill expires, and
 * fills built in concurrent batches that could pick the same coins.
 */
import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToTxid } from "../../../src/chains/bitcoin/bytes.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { USER_SLIPPAGE_BPS, waitFor } from "../../support/localnet.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";
import { bitcoinFeeOf } from "../../support/memory-journal.js";
import type { BitcoinChainConfig } from "../../../src/chains/bitcoin/config.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "ethereum_localnet:usdc";
const DESTINATION_TIMELOCK = 20;

let t: AttackNet;

async function order(user: LocalUser, usdc: bigint, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(USDC, BTC, usdc);
  return user.createOrder(quote, {
    slippageBps: USER_SLIPPAGE_BPS,
    ...(secretHash === undefined ? {} : { secretHash }),
  });
}

/** The solver's journaled, mined transactions of one action of an order. */
function minedAttempts(o: Order, kind: string) {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(o.order_id).find((a) => a.kind === kind);
  if (action === undefined) return [];
  return journal.attemptsOfAction(action.id).filter((a) => a.state === "confirmed");
}

const feeOf = bitcoinFeeOf;

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet(
      { bitcoinBlockMinFeeRateSatVb: 2, bitcoinDestinationTimelock: DESTINATION_TIMELOCK },
      // Two fills per transaction at most, so a round with more fills builds batches side by side. Client
      // secrets to Bitcoin are allowed here, so a test can keep a destination unredeemed; the attack on
      // that rule has its own test below, with the rule in force.
      (config) => ({
        ...config,
        safety: { ...config.safety, allowUnenforcedSecretLength: true },
        chains: config.chains.map((c) =>
          c.family === "bitcoin" ? ({ ...c, maxBatch: 2 } as BitcoinChainConfig) : c,
        ),
      }),
    );
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** Foreign value at a Bitcoin destination: dust before the fill, an output paid late. */
export function bitcoinDestinationForeignValue(): void {
  useNet();
  describe("attack: dust at the destination address before the fill", () => {
    it("is not the fill: the solver still sends the full amount, and the user receives it", async () => {
      const user = t.user(0);
      const attacker = t.user(2);
      const o = await order(user, 60_000_000n);
      const amount = BigInt(o.destination_swap.amount);
      const dust = await attacker.bitcoin.pay([{ address: o.destination_swap.swap_id, value: 20_000n }]);
      await t.net.bitcoin.mine(1);
      const solverBtc = await solverHolds(t, BTC);
      const solverUsdc = await solverHolds(t, USDC);
      const userBtc = await user.balance(BTC);

      await user.initiateWithSignature(o);
      await user.waitForOrder(o.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the source redeem to be mined");

      const [fill] = minedAttempts(o, "fill");
      const fillTx = Transaction.fromHex(fill!.raw);
      expect(fillTx.getId()).not.toBe(dust);
      const paid = await user.bitcoin.outputsOf(o.destination_swap.swap_id);
      expect(paid.find((x) => x.txid === fill!.txHash)?.value).toBe(amount);
      // The solver paid the amount and its fee, and took the source in exchange.
      expect(await solverHolds(t, BTC)).toBe(solverBtc - amount - feeOf(fill!));
      expect(await solverHolds(t, USDC)).toBe(solverUsdc + BigInt(o.source_swap.amount));
      // The user was paid in full (the service's redeem also swept the dust it could spend).
      expect(await user.balance(BTC)).toBeGreaterThan(userBtc + amount - 2_000n);
    });
  });
  describe("attack: an output paid to the destination late, still locked when the fill expires", () => {
    it("stays out of the solver's refund, which is mined as soon as the fill is refundable", async () => {
      const user = t.user(1);
      const attacker = t.user(2);
      const { secretHash } = newUserSecret();
      const o = await order(user, 50_000_000n, secretHash);
      const amount = BigInt(o.destination_swap.amount);
      const solverBtc = await solverHolds(t, BTC);
      await user.initiateWithSignature(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined", 60_000);
      const [fill] = minedAttempts(o, "fill");
      const filledAt = (await t.net.bitcoin.rpc.getRawTransactionVerbose(fill!.txHash)).blockhash!;
      const fillHeight = (await t.net.bitcoin.rpc.getBlockHeader(filledAt)).height;

      // Late in the fill's lock, the attacker pays into the same address.
      const tip = await t.net.bitcoin.rpc.getBlockCount();
      await t.net.bitcoin.mine(Math.max(0, fillHeight + DESTINATION_TIMELOCK - 6 - tip));
      const late = await attacker.bitcoin.pay([{ address: o.destination_swap.swap_id, value: 40_000n }]);
      await t.net.bitcoin.mine(1);

      await waitFor(() => journaled(t, o).includes("refund:confirmed"), "the refund to be mined", 90_000);
      const [refund] = minedAttempts(o, "refund");
      const refundTx = Transaction.fromHex(refund!.raw);
      const spent = refundTx.ins.map((input) => `${hashToTxid(input.hash)}:${input.index}`);
      expect(spent.some((outpoint) => outpoint.startsWith(late))).toBe(false);
      expect(spent).toHaveLength(1);
      const refundHeight = (
        await t.net.bitcoin.rpc.getBlockHeader(
          (await t.net.bitcoin.rpc.getRawTransactionVerbose(refund!.txHash)).blockhash!,
        )
      ).height;
      // Mined before the attacker's output was even past its own lock.
      expect(refundHeight).toBeLessThan(fillHeight + DESTINATION_TIMELOCK + 6);
      expect(await solverHolds(t, BTC)).toBe(solverBtc - feeOf(fill!) - feeOf(refund!));
      expect(refundTx.outs[0]?.value).toBe(amount - feeOf(refund!));
    });
  });
}

/** More Bitcoin fills in a round than one transaction carries. */
export function bitcoinFillBurst(): void {
  useNet();
  describe("attack: more fills in a round than one transaction carries", () => {
    it("builds batches side by side that never pick the same coins, and every fill is mined", async () => {
      const users = [t.user(0), t.user(1)];
      const orders: Order[] = [];
      for (let i = 0; i < 5; i++)
        orders.push(await order(users[i % 2]!, 20_000_000n + BigInt(i) * 1_000_000n));
      const solverBtc = await solverHolds(t, BTC);
      // Each user's first initiate approves the HTLC once; the rest go out together, to land in one round.
      await users[0]!.initiateWithSignature(orders[0]!);
      await users[1]!.initiateWithSignature(orders[1]!);
      await Promise.all(orders.slice(2).map((o, i) => users[i % 2]!.initiateWithSignature(o)));
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("fill:confirmed")),
        "every fill to be mined",
        120_000,
      );
      const fills = new Map<string, { raw: string; fee: bigint }>();
      for (const o of orders) {
        for (const attempt of minedAttempts(o, "fill"))
          fills.set(attempt.txHash, { raw: attempt.raw, fee: feeOf(attempt) });
      }
      const inputs = [...fills.values()].flatMap(({ raw }) =>
        Transaction.fromHex(raw).ins.map((input) => `${hashToTxid(input.hash)}:${input.index}`),
      );
      expect(new Set(inputs).size).toBe(inputs.length);
      // No fill attempt was ever dropped or failed: none conflicted with another.
      const journal = t.net.solver!.journal;
      for (const o of orders) {
        const fill = journal.orderActions(o.order_id).find((a) => a.kind === "fill")!;
        expect(journal.attemptsOfAction(fill.id).map((a) => a.state)).toEqual(["confirmed"]);
      }
      const amounts = orders.reduce((sum, o) => sum + BigInt(o.destination_swap.amount), 0n);
      const fees = [...fills.values()].reduce((sum, f) => sum + f.fee, 0n);
      expect(await solverHolds(t, BTC)).toBe(solverBtc - amounts - fees);
      for (const [i, o] of orders.entries())
        await users[i % 2]!.waitForOrder(o.order_id, completed, { timeoutMs: 120_000 });
    });
  });
}
