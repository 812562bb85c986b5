/**
 * The solver's Starknet node stuck at an old head while the chain moves on: the user locks a Starknet
 * source, the node sticks at the lock's block, and the chain goes on until the source is close to its
 * refund. Counted from the stuck head, the source would seem to have its whole timelock left, and a fill
 * would leave the user free to refund the source and still redeem it. The head's block is older than the
 * chain's allowance, so the solver counts nothing from it and fills nothing; once the node catches up, it
 * sees too little time left, fills nothing and gives the user the source back by its instant refund. The
 * solver pays only that transaction's fee; the user ends with what they had.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SolverConfig } from "../../../src/config/types.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  STARKNET_WBTC,
} from "../../e2e/swaps/starknet-support.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  minedAttempts,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { StarknetNodeProxy } from "../support/starknet-node-proxy.js";

const STARKNET_CHAIN = "starknet_localnet";
const TO = "ethereum_localnet:wbtc";
const AMOUNT = 1_000_000n;
/** A head older than this is stale (the default allowance is a minute). */
const MAX_HEAD_AGE_MS = 5_000;
/**
 * Blocks the chain makes past the stuck head: of the source's 7200, 1100 are left, a second each at the
 * fastest, short of the EVM fill's 600 s and the 600 s margin.
 */
const BLOCKS_PAST = 6_100;

let t: AttackNet;
let node: StarknetNodeProxy;

/** The solver's config here: its Starknet chain read through the stuck node only. */
function throughTheNode(config: SolverConfig): SolverConfig {
  return {
    ...config,
    chains: config.chains.map((c) =>
      c.name === STARKNET_CHAIN ? { ...c, rpcUrls: [node.url], maxHeadAgeMs: MAX_HEAD_AGE_MS } : c,
    ),
  };
}

export function starknetStuckNode(): void {
  beforeAll(async () => {
    t = await startAttackNet({}, async (config) => {
      node = new StarknetNodeProxy(config.chains.find((c) => c.name === STARKNET_CHAIN)!.rpcUrls[0]!);
      await node.start();
      return throughTheNode(config);
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
    await node?.stop();
  });

  describe("attack: the solver's Starknet node stuck at the source's block while the chain runs towards its refund", () => {
    it("fills nothing from the stuck head nor after it catches up; the user gets the source back", async () => {
      const user = t.user(0);
      const order = await user.createOrder(await user.bestQuote(STARKNET_WBTC, TO, AMOUNT));
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        solverTo: await solverHolds(t, TO),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        userTo: await user.balance(TO),
      };
      const config = throughTheNode({
        ...t.net.solverConfig,
        service: { ...t.net.solverConfig.service, url: t.proxy.url },
      });
      await t.net.solver!.stop();
      await user.initiateStarknet(order);
      const stuckAt = await node.freeze();
      t.net.starknet.local.mineBlock(BLOCKS_PAST);
      await new Promise((resolve) => setTimeout(resolve, MAX_HEAD_AGE_MS + 1_000));

      await t.net.startSolver(config);
      await solverRounds(t, 5);
      expect(node.frozenAnswers).toBeGreaterThan(0);
      expect(journaled(t, order)).toEqual([]);
      expect(lastReason(t, order)).toBe("source_chain_unreadable");
      const stale = t.log.find(
        (l) => l.msg === "RPC endpoint's head is stale; its tips are not used" && l.head === stuckAt,
      );
      expect(stale).toBeDefined();

      // The node catches up: the source is too close to its refund for any fill; the solver declines it
      // and hands the user the source back by its instant refund.
      node.thaw();
      await waitFor(
        () => journaled(t, order).includes("instant_refund:confirmed"),
        "the solver's instant refund of the source",
        60_000,
      );
      expect(journaled(t, order)).toEqual(["instant_refund:confirmed"]);
      const reasons = t.net
        .solver!.journal.decisions(order.order_id)
        .map((d) => d.reason)
        .reverse();
      expect(reasons.indexOf("source_chain_unreadable")).toBeGreaterThanOrEqual(0);
      expect(reasons.indexOf("source_timelock_too_short")).toBeGreaterThan(
        reasons.indexOf("source_chain_unreadable"),
      );
      const refund = minedAttempts(t, order, "instant_refund");
      expect(refund).toHaveLength(1);
      expect(before.solverStrk - solverStrk(t)).toBe(await starknetFee(t, refund[0]!.txHash));
      expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc);
      expect(await user.balance(TO)).toBe(before.userTo);
      expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc);
      expect(await solverHolds(t, TO)).toBe(before.solverTo);
    }, 180_000);
  });
}
