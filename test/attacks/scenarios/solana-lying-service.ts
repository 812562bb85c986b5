/**
 * The solver reads the service through a proxy that lies about chosen orders with a Solana side. For each
 * lie it must not fill: it waits or refuses, journals and logs the reason, and sends nothing. At the end
 * the solver's SOL, SPL tokens and EVM nonces are what they were.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Address } from "viem";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import type { LyingProxy, OrderLie } from "../../support/lying-proxy.js";
import { journaled, startAttackNet, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import { feeOf, SOL, solanaFeeOfAction, solverSolana, SPL_USDC } from "../../e2e/swaps/solana-support.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

/** Poll rounds (500 ms each) the solver is given after its decision to show it still sends nothing. */
const SETTLE_MS = 3_000;

/** A service that lies about Solana sides. */
export function solanaLyingFields(version: SolanaProgramVersion = "current"): void {
  describe("a service that lies about Solana sides", () => {
    let t: AttackNet;
    let proxy: LyingProxy;
    let before: Holdings;
    /** Fees of the instant refunds the solver sent back to users (legacy only), lamports. */
    let solverFees = 0n;

    interface Holdings {
      sol: bigint;
      spl: bigint;
      nonces: Map<string, number>;
    }

    async function holdings(): Promise<Holdings> {
      const nonces = new Map<string, number>();
      for (const chain of t.net.descriptor.chains) {
        const client = createPublicClient({ transport: http(chain.rpcUrl) });
        const address = t.net.descriptor.solver.evmAddress as Address;
        nonces.set(chain.name, await client.getTransactionCount({ address, blockTag: "pending" }));
      }
      return { sol: await solverSolana(t, SOL), spl: await solverSolana(t, SPL_USDC), nonces };
    }

    beforeAll(async () => {
      // Every order here is lied about: the solver must never see one before its lie.
      t = await startAttackNet({ solanaProgramVersion: version }, undefined, { onlyNamed: true });
      proxy = t.proxy;
      before = await holdings();
    });
    afterAll(() => stopAttackNet(t));

    async function expectNoFill(
      order: Order,
      initiate: (order: Order) => Promise<unknown>,
      lie: OrderLie,
      reason: string,
      outcome: "refuse" | "wait",
    ): Promise<string> {
      proxy.lieAbout(order.order_id, lie);
      await initiate(order);
      const journal = t.net.solver!.journal;
      await waitFor(
        () => journal.lastDecision(order.order_id)?.reason === reason,
        `decision ${reason}`,
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const decision = journal.lastDecision(order.order_id)!;
      expect([decision.outcome, decision.reason]).toEqual([outcome, reason]);
      expect(journal.orderActions(order.order_id)).toEqual([]);
      const logged = t.log.find((l) => l.orderId === order.order_id && l.reason === reason);
      expect(logged?.msg).toBe(outcome === "refuse" ? "refusing to fill" : "not filling yet");
      return decision.detail;
    }

    async function orderOf(userIndex: number, from: string, to: string, amount: bigint): Promise<Order> {
      const user = t.user(userIndex);
      return user.createOrder(await user.bestQuote(from, to, amount));
    }

    it("claims a SOL source initiated and confirmed that the user never locked", async () => {
      const order = await orderOf(0, SOL, "arbitrum_localnet:usdc", 1_000_000_000n);
      const detail = await expectNoFill(
        order,
        () => Promise.resolve(),
        (o) => {
          o.source_swap.initiate_tx_hash = "4".repeat(88);
          o.source_swap.initiate_block_number = "10";
          o.source_swap.filled_amount = o.source_swap.amount;
          o.source_swap.current_confirmations = o.source_swap.required_confirmations;
        },
        "source_not_initiated",
        "wait",
      );
      expect(detail).toBe("no deposit on the source chain yet");
    });

    const larger = (o: Order) => {
      o.source_swap.amount = (BigInt(o.source_swap.amount) * 2n).toString();
      o.source_swap.filled_amount = o.source_swap.amount;
    };

    if (version === "legacy") {
      it("claims a larger SOL source than the user locked: the legacy account at its address says less", async () => {
        // The legacy address commits to the initiator and the secret hash only: the user's lock sits
        // where the larger one would, its stored amount the true one. Refused, and handed back at once.
        const user = t.user(1);
        const order = await orderOf(1, SOL, "arbitrum_localnet:usdc", 1_000_000_000n);
        const userSol = await user.balance(SOL);
        proxy.lieAbout(order.order_id, larger);
        const lock = await user.initiateSolana(order);
        const journal = t.net.solver!.journal;
        await waitFor(
          () => journaled(t, order).includes("instant_refund:confirmed"),
          "the instant refund",
          30_000,
        );
        const refusal = journal
          .decisions(order.order_id)
          .find((d) => d.reason === "source_differs_from_chain");
        expect(refusal?.outcome).toBe("refuse");
        const logged = t.log.find((l) => l.orderId === order.order_id && l.reason === refusal?.reason);
        expect(logged?.msg).toBe("refusing to fill");
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        expect(journaled(t, order)).toEqual(["instant_refund:confirmed"]);
        // The user has the lock and its rent back, less their fee; the solver paid the refund's fee only.
        expect(userSol - (await user.balance(SOL))).toBe(feeOf(t, lock));
        solverFees += solanaFeeOfAction(t, order.order_id, "instant_refund");
      });
    } else {
      it("claims a larger SOL source than the user locked: no swap account has those terms", async () => {
        const user = t.user(1);
        const order = await orderOf(1, SOL, "arbitrum_localnet:usdc", 1_000_000_000n);
        const userSol = await user.balance(SOL);
        await expectNoFill(order, (o) => user.initiateSolana(o), larger, "source_not_initiated", "wait");
        // The user's lock is real: the amount and the swap account's rent left its wallet, plus the fee.
        expect(userSol - (await user.balance(SOL))).toBeGreaterThan(1_000_000_000n);
      });
    }

    it("names someone else as the redeemer of an SPL source", async () => {
      const user = t.user(2);
      const order = await orderOf(2, SPL_USDC, "ethereum_localnet:usdc", 100_000_000n);
      await expectNoFill(
        order,
        (o) => user.initiateSolana(o),
        (o) => {
          o.source_swap.redeemer = user.solana.address;
        },
        "solver_not_redeemer",
        "refuse",
      );
    });

    it("states a Solana destination swap id that does not recompute", async () => {
      const user = t.user(0);
      const order = await orderOf(0, "ethereum_localnet:usdc", SOL, 100_000_000n);
      await expectNoFill(
        order,
        (o) => user.initiateWithSignature(o),
        (o) => {
          o.destination_swap.swap_id = "ee".repeat(32);
        },
        "swap_id_mismatch",
        "refuse",
      );
    });

    it("made the solver fill nothing: its SPL tokens and EVM nonces are unchanged, its SOL less any refund's fee", async () => {
      expect(await holdings()).toEqual({ ...before, sol: before.sol - solverFees });
    });
  });
}
