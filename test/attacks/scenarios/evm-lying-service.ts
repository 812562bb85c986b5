import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Address } from "viem";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import type { LyingProxy, OrderLie } from "../../support/lying-proxy.js";
import { startAttackNet, stopAttackNet, type AttackNet } from "../support/attack-net.js";
import type { EvmChainConfig } from "../../../src/chains/evm/config.js";

/**
 * The solver reads the service through a proxy that lies about chosen orders. For each lie it must refuse
 * (journal and log the reason) and send nothing. The service gives sources 1000 blocks, too short for a
 * 600-block destination plus the 10-minute margin; the solver wants 10 000 confirmations on ethereum_localnet.
 */

/** A service that lies about EVM orders' fields. */
export function evmLyingFields(): void {
  describe("a service that lies", () => {
    let t: AttackNet;
    let proxy: LyingProxy;
    const nonces = new Map<string, number>();

    async function solverNonces(): Promise<Map<string, number>> {
      const result = new Map<string, number>();
      for (const chain of t.net.descriptor.chains) {
        const client = createPublicClient({ transport: http(chain.rpcUrl) });
        result.set(
          chain.name,
          await client.getTransactionCount({ address: t.net.descriptor.solver.evmAddress as Address }),
        );
      }
      return result;
    }

    beforeAll(async () => {
      // Every order here is lied about: the solver must never see one before its lie.
      t = await startAttackNet(
        { sourceTimelock: 1000 },
        (config) => ({
          ...config,
          chains: config.chains.map((c) =>
            c.name === "ethereum_localnet" ? ({ ...c, minConfirmations: 10_000 } as EvmChainConfig) : c,
          ),
        }),
        { onlyNamed: true },
      );
      proxy = t.proxy;
      for (const [chain, nonce] of await solverNonces()) nonces.set(chain, nonce);
    });
    afterAll(() => stopAttackNet(t));

    async function expectRefusal(
      from: string,
      to: string,
      lie: OrderLie,
      reason: string,
      outcome: "refuse" | "wait" = "refuse",
    ): Promise<string> {
      const user = t.user(0);
      const quote = await user.bestQuote(from, to, 50_000_000n);
      const order = await user.createOrder(quote);
      proxy.lieAbout(order.order_id, lie);
      await user.initiateOnChain(order);
      const journal = t.net.solver!.journal;
      await waitFor(
        () => journal.lastDecision(order.order_id)?.reason === reason,
        `decision ${reason}`,
        30_000,
      );
      const decision = journal.lastDecision(order.order_id)!;
      expect(decision.outcome).toBe(outcome);
      expect(journal.orderActions(order.order_id)).toEqual([]);
      const logged = t.log.find((l) => l.orderId === order.order_id && l.reason === reason);
      expect(logged?.msg).toBe(outcome === "refuse" ? "refusing to fill" : "not filling yet");
      return decision.detail;
    }

    it("claims a larger source amount than the chain holds", async () => {
      const detail = await expectRefusal(
        "arbitrum_localnet:usdc",
        "ethereum_localnet:usdc",
        (o: Order) => {
          o.source_swap.amount = (BigInt(o.source_swap.amount) * 2n).toString();
        },
        "source_differs_from_chain",
      );
      expect(detail).toMatch(/^amount: order says 100000000, chain has 50000000/);
    });

    it("names someone else as the source redeemer", async () => {
      await expectRefusal(
        "arbitrum_localnet:usdc",
        "ethereum_localnet:usdc",
        (o) => {
          o.source_swap.redeemer = "0x000000000000000000000000000000000000dEaD";
        },
        "solver_not_redeemer",
      );
    });

    it("reports a source as confirmed that our node does not confirm", async () => {
      const detail = await expectRefusal(
        "ethereum_localnet:usdc",
        "arbitrum_localnet:usdc",
        (o) => {
          o.source_swap.required_confirmations = 1;
          o.source_swap.current_confirmations = 1;
        },
        "source_unconfirmed",
        "wait",
      );
      expect(detail).toContain("0 is locked with 10000 confirmations on our node (service reports 1)");
    });

    it("gives a source timelock too short for the destination's plus the margin", async () => {
      await expectRefusal(
        "arbitrum_localnet:usdc",
        "ethereum_localnet:usdc",
        () => undefined,
        "source_timelock_too_short",
      );
    });

    it("sends a secret hash that is not 32 bytes", async () => {
      await expectRefusal(
        "arbitrum_localnet:usdc",
        "ethereum_localnet:usdc",
        (o) => {
          o.source_swap.secret_hash = o.source_swap.secret_hash.slice(0, 40);
          o.destination_swap.secret_hash = o.destination_swap.secret_hash.slice(0, 40);
        },
        "secret_hash_not_32_bytes",
      );
    });

    it("states a destination swap id that does not recompute", async () => {
      await expectRefusal(
        "arbitrum_localnet:usdc",
        "ethereum_localnet:usdc",
        (o) => {
          o.destination_swap.swap_id = "ee".repeat(32);
        },
        "swap_id_mismatch",
      );
    });

    it("made the solver send nothing on any chain", async () => {
      expect(await solverNonces()).toEqual(nonces);
    });
  });
}
