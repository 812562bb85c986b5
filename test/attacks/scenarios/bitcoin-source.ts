/**
 * Attacks on the solver through a Bitcoin source, on the localnet, each made as a user (or a service
 * holding the user's HTLC key) would make it, each checked on both sides' balances. The regtest node
 * mines only transactions paying 2 sat/vB or more, so a payment at 1 sat/vB sits in the mempool until
 * its sender replaces it: the evictable deposit of an attacker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Transaction } from "bitcoinjs-lib";
import { buildRefundTx } from "../../../src/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "../../../src/chains/bitcoin/keys.js";
import { sourceHtlc } from "@htlc-solver/localnet/families/bitcoin/user-bitcoin.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { decisionBeforeInstantRefund } from "../../support/decisions.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  moveSolverTokens,
  redeemAndSettle,
  serviceKeyOf,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";
import { bitcoinFeeOf } from "../../support/memory-journal.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "arbitrum_localnet:usdc";
const AMOUNT = 1_000_000n;
/** Short enough to mine past in a test, long enough for the solver's timelock rule (> 1200 blocks here). */
const SOURCE_TIMELOCK = 1300;

let t: AttackNet;
/** One user's view of the chain, kept for the file: its indexer follows every address it was asked about. */
let observer: LocalUser;

async function order(user: LocalUser, secretHash?: string): Promise<Order> {
  const quote = await user.bestQuote(BTC, USDC, AMOUNT);
  return user.createOrder(quote, secretHash === undefined ? {} : { secretHash });
}

function depositAddress(o: Order): string {
  return sourceHtlc(o.source_swap, "regtest").address;
}

async function mined(txid: string): Promise<void> {
  await waitFor(
    async () => (await t.net.bitcoin.rpc.getRawTransactionVerbose(txid)).blockhash !== undefined,
    `${txid} to be mined`,
  );
}

const outputsAt = (o: Order) => observer.bitcoin.outputsOf(depositAddress(o));

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({ bitcoinBlockMinFeeRateSatVb: 2, bitcoinSourceTimelock: SOURCE_TIMELOCK });
    observer = t.user(0);
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** Source value that is not there, on a Bitcoin source. */
export function bitcoinSourceValue(): void {
  useNet();
  describe("attack: confirmed dust beside an evictable deposit", () => {
    it("is not a deposit: the solver waits, the attacker evicts the deposit, nothing is filled", async () => {
      const attacker = t.user(0);
      const o = await order(attacker);
      const solverUsdc = await solverHolds(t, USDC);
      const solverBtc = await solverHolds(t, BTC);

      const dust = await attacker.bitcoin.pay([{ address: depositAddress(o), value: 20_000n }]);
      await mined(dust);
      const evictable = await attacker.bitcoin.pay([{ address: depositAddress(o), value: AMOUNT }], 1n);
      await t.net.bitcoin.mine(3);
      await solverRounds(t, 4);
      expect((await outputsAt(o)).find((x) => x.txid === evictable)?.height).toBeNull();
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");

      const replacement = await attacker.bitcoin.cancel(evictable, 5n);
      await mined(replacement);
      expect((await outputsAt(o)).map((x) => x.txid)).toEqual([dust]);
      await solverRounds(t, 3);
      expect(journaled(t, o)).toEqual([]);
      expect(await solverHolds(t, USDC)).toBe(solverUsdc);
      expect(await solverHolds(t, BTC)).toBe(solverBtc);
    });
  });
  describe("attack: refund one output of a source, hoping the rest is never redeemed", () => {
    it("the solver still redeems the outputs that are left", async () => {
      const user = t.user(2);
      const secret = newUserSecret();
      const o = await order(user, secret.secretHash);
      // An output too small to be worth spending, old enough to be refundable once the deposit arrives.
      const small = await user.bitcoin.pay([{ address: depositAddress(o), value: 5_000n }]);
      await mined(small);
      expect((await outputsAt(o)).map((x) => x.txid)).toEqual([small]);
      await t.net.bitcoin.mine(SOURCE_TIMELOCK);
      const solverBtc = await solverHolds(t, BTC);
      const solverUsdc = await solverHolds(t, USDC);
      const [deposit] = await user.fundBitcoinSource(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined", 60_000);

      // Whoever holds the source's initiator key (here the service) refunds the small output alone.
      const htlc = sourceHtlc(o.source_swap, "regtest");
      const smallOutput = (await outputsAt(o)).find((x) => x.txid === small)!;
      const refund = buildRefundTx(
        [{ htlc, txid: small, vout: smallOutput.vout, value: smallOutput.value }],
        BitcoinKey.fromHex(serviceKeyOf(t, o.source_swap.swap_id)),
        user.bitcoin.key.walletPayment(htlc.network).output,
        2n,
      );
      await t.net.bitcoin.rpc.sendRawTransaction(refund.tx.toHex());
      await mined(refund.tx.getId());

      await redeemAndSettle(t, user, o, secret.secret);
      const outputs = await outputsAt(o);
      expect(outputs.find((x) => x.txid === small)?.spentBy?.txid).toBe(refund.tx.getId());
      const redeemedBy = outputs.find((x) => x.txid === deposit)?.spentBy?.txid;
      const redeem = t.net.solver!.journal.recentAttempts(50).find((a) => a.txHash === redeemedBy)!;
      expect(await solverHolds(t, BTC)).toBe(solverBtc + AMOUNT - bitcoinFeeOf(redeem));
      expect(await solverHolds(t, USDC)).toBe(solverUsdc - BigInt(o.destination_swap.amount));
    });
  });
  describe("attack: a passing refusal, then an instant refund, then a fill", () => {
    it("waits while inventory is short, refunds on a verdict, and never fills after it", async () => {
      const user = t.user(1);
      const o = await order(user);
      const held = await solverHolds(t, USDC);
      const away = held - BigInt(o.destination_swap.amount) / 2n;
      await moveSolverTokens(t, USDC, "away", away);
      const userBtc = await user.bitcoin.balance();
      const [deposit] = await user.fundBitcoinSource(o);
      await waitFor(() => lastReason(t, o) === "insufficient_inventory", "the solver to wait on inventory");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);

      // Now a verdict on the order itself: the service says its deadline has passed.
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.additional_data.deadline = Math.floor(Date.now() / 1000) - 60;
      });
      await waitFor(
        () => journaled(t, o).includes("instant_refund:confirmed"),
        "the instant refund to be handed over",
      );
      expect(decisionBeforeInstantRefund(t.net.solver!.journal, o.order_id)?.reason).toBe("deadline_passed");

      // Inventory is back and the service tells the truth again: the order would pass every other rule,
      // and the user, holding the refund, would take the fill and the deposit both. No fill comes.
      t.proxy.stopLying(o.order_id);
      await moveSolverTokens(t, USDC, "back", away);
      await solverRounds(t, 5);
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      expect(lastReason(t, o)).toBe("instant_refund_given");
      expect(await solverHolds(t, USDC)).toBe(held);

      const withRefund = await user.waitForOrder(o.order_id, (x) => x.source_swap.instant_refund_tx !== "");
      const refundTxid = await user.broadcastInstantRefund(withRefund);
      await mined(refundTxid);
      const refunded = (await outputsAt(o)).find((x) => x.txid === deposit);
      expect(refunded?.spentBy?.txid).toBe(refundTxid);
      // The user has the deposit back, less the two transactions' fees.
      const back = await user.bitcoin.balance();
      expect(back).toBeLessThan(userBtc);
      expect(back).toBeGreaterThan(userBtc - 10_000n);
    });
  });
}

/** An extra output at a Bitcoin source address. */
export function bitcoinSourceForeignOutput(): void {
  useNet();
  describe("attack: an extra output at the source address", () => {
    it("never rides in the solver's redeem: it spends confirmed outputs only, and its redeem is mined", async () => {
      const user = t.user(1);
      const attacker = t.user(0);
      const secrets = [newUserSecret(), newUserSecret()];
      const orders = [await order(user, secrets[0]!.secretHash), await order(user, secrets[1]!.secretHash)];
      const solverBtc = await solverHolds(t, BTC);
      await user.fundBitcoinSources(orders);
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("fill:confirmed")),
        "both fills to be mined",
        60_000,
      );
      // The attacker pays into the first source at a fee no block takes, then the user reveals both secrets.
      const extra = await attacker.bitcoin.pay([{ address: depositAddress(orders[0]!), value: 30_000n }], 1n);
      for (const [i, o] of orders.entries()) await user.redeemDestination(o, secrets[i]!.secret);
      await waitFor(
        () => orders.every((o) => journaled(t, o).includes("redeem:confirmed")),
        "both source redeems to be mined",
        60_000,
      );
      // Every redeem transaction that was mined: none spends the attacker's output.
      const journal = t.net.solver!.journal;
      const redeems = new Map<string, { raw: string; feeSats: bigint }>();
      for (const o of orders) {
        const redeem = journal.orderActions(o.order_id).find((a) => a.kind === "redeem")!;
        for (const attempt of journal.attemptsOfAction(redeem.id).filter((a) => a.state === "confirmed"))
          redeems.set(attempt.txHash, { raw: attempt.raw, feeSats: bitcoinFeeOf(attempt) });
      }
      let received = 0n;
      let fees = 0n;
      for (const { raw, feeSats } of redeems.values()) {
        const tx = Transaction.fromHex(raw);
        const spent = tx.ins.map((input) => Buffer.from(input.hash).reverse().toString("hex"));
        expect(spent).not.toContain(extra);
        received += tx.outs[0]!.value;
        fees += feeSats;
      }
      // The solver got both deposits, less its redeem fees, and nothing of the attacker's.
      expect(received).toBe(2n * AMOUNT - fees);
      expect(await solverHolds(t, BTC)).toBe(solverBtc + received);
      await attacker.bitcoin.cancel(extra, 5n);
    });
  });
}
