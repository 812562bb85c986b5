/**
 * The solver reads the service through a proxy that lies about chosen orders with a Bitcoin side. For
 * each lie it must not fill: it waits or refuses, journals and logs the reason, and sends nothing on any
 * chain. At the end the solver's BTC, its EVM coins and tokens and its EVM nonces are what they were.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Address } from "viem";
import { bitcoinHtlc } from "../../../src/chains/bitcoin/htlc.js";
import { sourceHtlc } from "@htlc-solver/localnet/families/bitcoin/user-bitcoin.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { decisionBeforeInstantRefund } from "../../support/decisions.js";
import { waitFor } from "../../support/localnet.js";
import type { LyingProxy, OrderLie } from "../../support/lying-proxy.js";
import { solverHolds, startAttackNet, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import { confirmedAt, minedBitcoin, minedFee } from "../support/bitcoin-moves.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "ethereum_localnet:usdc";
const AMOUNT = 1_000_000n;
/** Poll rounds (500 ms each) the solver is given after its decision to show it still sends nothing. */
const SETTLE_MS = 3_000;

/** A service that lies about Bitcoin sides. */
export function bitcoinServiceLies(): void {
  describe("a service that lies about Bitcoin sides", () => {
    let t: AttackNet;
    let proxy: LyingProxy;
    let before: Holdings;

    interface Holdings {
      btc: bigint;
      /** Every EVM asset the solver holds, by id. */
      evm: Map<string, bigint>;
      nonces: Map<string, number>;
    }

    async function holdings(): Promise<Holdings> {
      const evm = new Map<string, bigint>();
      const nonces = new Map<string, number>();
      for (const chain of t.net.descriptor.chains) {
        for (const asset of chain.assets) evm.set(asset.id, await solverHolds(t, asset.id));
        const client = createPublicClient({ transport: http(chain.rpcUrl) });
        const address = t.net.descriptor.solver.evmAddress as Address;
        nonces.set(chain.name, await client.getTransactionCount({ address, blockTag: "pending" }));
      }
      return { btc: await solverHolds(t, BTC), evm, nonces };
    }

    beforeAll(async () => {
      // Every order here is lied about: the solver must never see one before its lie.
      t = await startAttackNet({}, undefined, { onlyNamed: true });
      proxy = t.proxy;
      before = await holdings();
    });
    afterAll(() => stopAttackNet(t));

    async function orderOf(user: LocalUser, from: string, to: string, amount: bigint, secretHash?: string) {
      const quote = await user.bestQuote(from, to, amount);
      return user.createOrder(quote, secretHash === undefined ? {} : { secretHash });
    }

    /**
     * Names the lie, lets the user act, and waits for the solver's decision and for the actions it leads
     * to (none, or the instant refund of a declined Bitcoin source); then nothing more for a while.
     */
    async function expectNoFill(
      order: Order,
      lie: OrderLie,
      act: (order: Order) => Promise<unknown>,
      reason: string,
      outcome: "refuse" | "wait",
      actions: string[] = [],
    ): Promise<string> {
      proxy.lieAbout(order.order_id, lie);
      await act(order);
      const journal = t.net.solver!.journal;
      const decided = () =>
        actions.length === 0
          ? journal.lastDecision(order.order_id)
          : decisionBeforeInstantRefund(journal, order.order_id);
      const journaled = () => journal.orderActions(order.order_id).map((a) => `${a.kind}:${a.status}`);
      await waitFor(() => decided()?.reason === reason, `decision ${reason}`);
      await waitFor(() => journaled().join() === actions.join(), `actions ${actions.join()}`);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const decision = decided()!;
      expect([decision.outcome, decision.reason]).toEqual([outcome, reason]);
      expect(journaled()).toEqual(actions);
      const logged = t.log.find((l) => l.orderId === order.order_id && l.reason === reason);
      expect(logged?.msg).toBe(outcome === "refuse" ? "refusing to fill" : "not filling yet");
      return decision.detail;
    }

    /** The user pays `value` to the order's deposit address (the one its terms give) and waits for a block. */
    async function deposit(user: LocalUser, order: Order, value: bigint): Promise<string> {
      const txid = await user.bitcoin.pay([
        { address: sourceHtlc(order.source_swap, "regtest").address, value },
      ]);
      await minedBitcoin(t, txid);
      return txid;
    }

    /** The deposit address of a source with other terms than the order's: a key or the timelock changed. */
    function otherAddress(order: Order, change: { redeemer?: string; timelock?: number }): string {
      const swap = order.source_swap;
      return bitcoinHtlc({
        initiatorKey: swap.delegate!,
        redeemerKey: change.redeemer ?? swap.redeemer,
        secretHash: swap.secret_hash,
        timelock: change.timelock ?? swap.timelock,
        network: "regtest",
      }).address;
    }

    it("claims a Bitcoin source funded and confirmed that the user never paid", async () => {
      const order = await orderOf(t.user(0), BTC, USDC, AMOUNT);
      const detail = await expectNoFill(
        order,
        (o) => {
          o.status = "Initiated";
          o.source_swap.initiate_tx_hash = "ab".repeat(32);
          o.source_swap.initiate_block_number = "120";
          o.source_swap.filled_amount = o.source_swap.amount;
          o.source_swap.current_confirmations = o.source_swap.required_confirmations;
        },
        () => Promise.resolve(),
        "source_not_initiated",
        "wait",
      );
      expect(detail).toBe("no deposit on the source chain yet");
    });

    it("claims a Bitcoin source paid in full that the user paid in part", async () => {
      const order = await orderOf(t.user(1), BTC, USDC, AMOUNT);
      const detail = await expectNoFill(
        order,
        (o) => {
          o.status = "Initiated";
          o.source_swap.filled_amount = o.source_swap.amount;
          o.source_swap.current_confirmations = o.source_swap.required_confirmations;
        },
        (o) => deposit(t.user(1), o, AMOUNT / 2n),
        "source_underfunded",
        "wait",
      );
      // The order's full amount against the one output the user paid, the half (journaled when first
      // seen, which may be while it was still unmined).
      expect(detail).toMatch(
        new RegExp(`^order says ${AMOUNT}; .* unspent outputs value@depth: ${AMOUNT / 2n}@\\d+$`),
      );
    });

    it("names a deposit address that the order's keys, hash and timelock do not give", async () => {
      const order = await orderOf(t.user(2), BTC, USDC, AMOUNT);
      // The address of the same keys and hash with a ten-block lock: one its initiator could refund at once.
      const shortLock = otherAddress(order, { timelock: 10 });
      const detail = await expectNoFill(
        order,
        (o) => {
          o.source_swap.swap_id = shortLock;
        },
        (o) => deposit(t.user(2), o, AMOUNT),
        "swap_id_mismatch",
        "refuse",
      );
      expect(detail).toBe(
        `source swap_id ${shortLock} does not recompute from the order's fields ` +
          `(expected ${order.source_swap.swap_id})`,
      );
    });

    it("names another key than the solver's as the redeemer of a Bitcoin source", async () => {
      const attacker = t.user(2);
      const order = await orderOf(t.user(0), BTC, USDC, AMOUNT);
      const detail = await expectNoFill(
        order,
        (o) => {
          // Consistent with itself: the address of those terms, which the attacker's key redeems.
          o.source_swap.swap_id = otherAddress(order, { redeemer: attacker.bitcoin.xOnlyKey });
          o.source_swap.redeemer = attacker.bitcoin.xOnlyKey;
        },
        (o) => deposit(t.user(0), o, AMOUNT),
        "solver_not_redeemer",
        "refuse",
      );
      expect(detail).toBe(
        `source redeemer ${attacker.bitcoin.xOnlyKey} is not the solver's ${t.net.descriptor.solver.bitcoinKey}`,
      );
    });

    it("states a Bitcoin destination address that does not recompute", async () => {
      const user = t.user(1);
      const attacker = t.user(2);
      const order = await orderOf(user, USDC, BTC, 100_000_000n);
      const swap = order.destination_swap;
      // The fill would pay an address the attacker's key redeems.
      const theirs = bitcoinHtlc({
        initiatorKey: swap.initiator,
        redeemerKey: attacker.bitcoin.xOnlyKey,
        secretHash: swap.secret_hash,
        timelock: swap.timelock,
        network: "regtest",
      }).address;
      const detail = await expectNoFill(
        order,
        (o) => {
          o.destination_swap.swap_id = theirs;
        },
        (o) => user.initiateWithSignature(o),
        "swap_id_mismatch",
        "refuse",
      );
      expect(detail).toBe(
        `destination swap_id ${theirs} does not recompute from the order's fields (expected ${swap.swap_id})`,
      );
    });

    it("says it holds the secret of a BTC -> EVM order and shows one the EVM destination refuses", async () => {
      const user = t.user(0);
      // A 33-byte preimage: Bitcoin's redeem leaf takes it, the EVM HTLC takes only 32 bytes.
      const secret = randomBytes(33);
      const secretHash = createHash("sha256").update(secret).digest("hex");
      const order = await orderOf(user, BTC, USDC, AMOUNT, secretHash);
      const userBtc = await confirmedAt(t, user.bitcoin.address);
      let paid = "";
      const detail = await expectNoFill(
        order,
        (o) => {
          o.additional_data.user_secret = false;
          o.source_swap.secret = secret.toString("hex");
          o.destination_swap.secret = secret.toString("hex");
        },
        async (o) => {
          paid = await deposit(user, o, AMOUNT);
        },
        "secret_unusable",
        "refuse",
        // A verdict on a funded Bitcoin source: the user is handed the solver's half of its instant refund.
        ["instant_refund:confirmed"],
      );
      expect(detail).toBe(
        "the secret is already known and has 33 bytes; ethereum_localnet takes only secrets of 32 bytes: the fill " +
          "could never be redeemed",
      );

      // The user takes the deposit back at once with the completed instant refund: less the two fees.
      const withRefund = await user.waitForOrder(
        order.order_id,
        (o) => o.source_swap.instant_refund_tx !== "",
      );
      const refund = await user.broadcastInstantRefund(withRefund);
      await minedBitcoin(t, refund);
      expect(await confirmedAt(t, user.bitcoin.address)).toBe(
        userBtc - (await minedFee(t, paid)) - (await minedFee(t, refund)),
      );
    });

    it("made the solver send nothing: its BTC, EVM coins, tokens and nonces are unchanged", async () => {
      expect(await holdings()).toEqual(before);
      // Nothing was signed for a chain but halves of instant refunds, which go to the service, not to a node.
      const journal = t.net.solver!.journal;
      for (const attempt of journal.recentAttempts(50))
        expect(attempt.actionIds.map((id) => journal.action(id).kind)).toEqual(["instant_refund"]);
    });
  });
}
