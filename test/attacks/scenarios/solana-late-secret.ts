/**
 * A user who reveals the secret only when the Solana source is close to its refund, while the solver's
 * redeem is lost on its way to the cluster: a Solana transaction cannot be replaced, only built again once
 * its blockhash expired, and the rebuild's doubled priority fee is above the configured ceiling. A missed
 * redeem loses the whole source, so the urgent redeem may pay above the ceiling, up to a share of the SPL
 * tokens it redeems converted to SOL at the solver's prices. It does, and it lands: the solver has the
 * tokens, less that one fee in SOL, and the user the fill.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAMPORTS_PER_SIGNATURE } from "../../../src/chains/solana/priority-fee.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { waitFor } from "../../support/localnet.js";
import { HoldingRpcProxy } from "../../e2e/cli/support/holding-rpc-proxy.js";
import { signatureOfWire, SOL, solverSolana, SPL_USDC } from "../../e2e/swaps/solana-support.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";
import type { SolanaProgramVersion } from "../../../src/chains/solana/program-version.js";

const TO = "arbitrum_localnet:usdc";
const AMOUNT = 60_000_000n; // 60 USDC
/** The configured ceiling, micro-lamports per unit: below a rebuild's doubled price. */
const CEILING = 1_000n;

let t: AttackNet;
let proxy: HoldingRpcProxy;

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(version: SolanaProgramVersion): void {
  beforeAll(async () => {
    t = await startAttackNet({ solanaProgramVersion: version }, async (config) => {
      const solana = config.chains.find((c) => c.family === "solana")!;
      proxy = new HoldingRpcProxy(solana.rpcUrls[0]!);
      proxy.acceptedAs = signatureOfWire;
      await proxy.start();
      return {
        ...config,
        chains: config.chains.map((c) =>
          c.family === "solana"
            ? { ...c, rpcUrls: [proxy.url], computeUnitPriceCeilingMicroLamports: CEILING }
            : c,
        ),
      };
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
    await proxy?.stop();
  });
}

/** The secret revealed near a Solana source's refund, the redeem lost on its way. */
export function solanaLateSecret(version: SolanaProgramVersion = "current"): void {
  useNet(version);
  describe("attack: the secret revealed near the Solana source's refund, the redeem lost on its way", () => {
    it("the urgent SPL redeem is rebuilt above the fee ceiling, within its allowance, and lands", async () => {
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(SPL_USDC, TO, AMOUNT), { secretHash });
      const filled = BigInt(order.destination_swap.amount);
      const [userTo, userSpl, solverTo, solverSpl, solverSol] = [
        await user.balance(TO),
        await user.balance(SPL_USDC),
        await solverHolds(t, TO),
        await solverSolana(t, SPL_USDC),
        await solverSolana(t, SOL),
      ];
      await user.initiateSolana(order);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to be mined");

      // The user waits: 1,200 slots (480 s at the fastest) are left before the source can be refunded,
      // inside the 600 s margin. The first redeem the solver sends, and every re-send of it, is lost.
      t.net.solana.local.advanceSlots(6_000n);
      let lost: string | null = null;
      proxy.loses = (raw) => {
        const signature = signatureOfWire(raw);
        lost ??= signature;
        return signature === lost;
      };
      await user.redeemDestination(order, secret);
      const journal = t.net.solver!.journal;
      const redeemAction = () => journal.orderActions(order.order_id).find((a) => a.kind === "redeem");
      await waitFor(() => lost !== null, "the first redeem to be sent");
      // Past its blockhash's validity and that height final: it can never land, and is built again.
      t.net.solana.local.advanceSlots(200n);
      await waitFor(() => redeemAction()?.status === "confirmed", "the rebuilt redeem to be final", 90_000);
      proxy.loses = null;

      const attempts = journal.attemptsOfAction(redeemAction()!.id);
      expect(attempts.map((a) => [a.txHash, a.state])).toEqual([
        [lost, "dropped"],
        [expect.any(String), "confirmed"],
      ]);
      const landed = attempts[1]!;
      if (landed.terms.family !== "solana") throw new Error("a Solana redeem with other terms");
      // 60 USDC is 0.4 SOL at 150 USD; 100 bps of it is what the redeem may pay in all.
      const allowance = 4_000_000n;
      expect(landed.terms.computeUnitPriceMicroLamports).toBeGreaterThan(CEILING);
      expect(landed.terms.feeLamports).toBeGreaterThan(
        LAMPORTS_PER_SIGNATURE + (CEILING * landed.terms.computeUnitLimit + 999_999n) / 1_000_000n,
      );
      expect(landed.terms.feeLamports).toBeLessThanOrEqual(allowance);
      const above = t.log.find(
        (l) => l.msg === "paying above the fee ceiling" && l.orderId === order.order_id,
      );
      expect(above?.reason).toContain("400000000 smallest units of solana_localnet:sol");
      const record = t.net.solana.local.chain.transaction(landed.txHash);
      expect(record?.err).toBeNull();
      expect(record?.fee).toBe(landed.terms.feeLamports);

      // Both sides: the solver has the tokens, less the one redeem's fee in SOL; the user has the fill.
      expect((await solverSolana(t, SPL_USDC)) - solverSpl).toBe(AMOUNT);
      expect(solverSol - (await solverSolana(t, SOL))).toBe(landed.terms.feeLamports);
      expect(solverTo - (await solverHolds(t, TO))).toBe(filled);
      expect((await user.balance(TO)) - userTo).toBe(filled);
      expect(userSpl - (await user.balance(SPL_USDC))).toBe(AMOUNT);
    }, 240_000);
  });
}
