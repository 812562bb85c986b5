/**
 * Time against a Sui fill and a Sui source.
 *
 * A Sui fill held back by gas (the chain's reference gas price above the solver's ceiling) while the EVM
 * source's timelock runs out: if it were sent late, the user could refund the source and still redeem the
 * fill. The Sui fill's lock is 600 000 ms of the chain's clock; the source's blocks, counted at their
 * fastest second, must outlast it plus the 600 s margin, in wall-clock time: with 1 300 blocks left the
 * solver still tries the fill, with 1 100 it no longer does. It never signs above the ceiling (a Sui
 * transaction cannot be replaced, so nothing is signed at all while the price is above it); once the
 * source is too short it fills nothing even when the price comes back down. The user refunds the source;
 * nothing of the solver's moved.
 *
 * A Sui source seen through a stale node (its checkpoints and the clock object stuck at the lock's
 * checkpoint) while the chain's clock runs on towards the source's refund: counted from the stuck clock
 * the source would seem to have its whole timelock left, and a fill would leave the user free to refund
 * the source and still redeem it. The head is older than the allowance, so the solver counts nothing from
 * it and fills nothing; once the node catches up it sees too little time left and gives the user the
 * source back by its instant refund, paying only that transaction's gas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import type { SolverConfig } from "../../../src/config/types.js";
import type { SuiChainConfig } from "../../../src/chains/sui/config.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  evmClients,
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { refundOn } from "../support/evm-moves.js";
import { SuiNodeProxy } from "../support/sui-node-proxy.js";
import { solverSui, SUI, suiBalance, suiGas, suiGasOfAction } from "../../e2e/swaps/sui-support.js";

const SOURCE_CHAIN = "ethereum_localnet";
const EVM_WBTC = `${SOURCE_CHAIN}:wbtc`;
const SUI_CHAIN = "sui_localnet";
const AMOUNT = 1_000_000n;
/** EVM source blocks, a second each at the fastest: 1 500 s, above the fill's 600 s and the 600 s margin. */
const SOURCE_TIMELOCK = 1_500;
/** Blocks mined in each of two steps while the fill waits: 1 300 left (still enough), then 1 100 (not). */
const SOURCE_BLOCKS_STEP = 200;
/**
 * What is left of the Sui source's 7 200 000 ms once the chain's clock has run on past the stuck node:
 * short of the EVM fill's 600 blocks and the 600 s margin.
 */
const SOURCE_LEFT_MS = 800_000n;
/** A head older than this is stale (the default allowance is a minute). */
const MAX_HEAD_AGE_MS = 5_000;

let t: AttackNet;
let node: SuiNodeProxy;

/** The solver's config here: its Sui chain read through the node, heads stale after MAX_HEAD_AGE_MS. */
function adjusted(config: SolverConfig): SolverConfig {
  return {
    ...config,
    chains: config.chains.map((c) =>
      c.name === SUI_CHAIN ? { ...c, rpcUrls: [node.url], maxHeadAgeMs: MAX_HEAD_AGE_MS } : c,
    ),
  };
}

function suiConfig(): SuiChainConfig {
  const chain = t.net.solverConfig.chains.find((c) => c.name === SUI_CHAIN);
  if (chain === undefined || chain.family !== "sui") throw new Error("no Sui chain in the solver's config");
  return chain;
}

/** The fill actions of an order and whether any of them ever signed a transaction. */
function fillActions(order: { order_id: string }) {
  const journal = t.net.solver!.journal;
  const fills = journal.orderActions(order.order_id).filter((a) => a.kind === "fill");
  return { fills, signed: fills.flatMap((a) => journal.attemptsOfAction(a.id)) };
}

export function suiTime(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK }, async (config) => {
      node = new SuiNodeProxy(config.chains.find((c) => c.name === SUI_CHAIN)!.rpcUrls[0]!);
      await node.start();
      return adjusted(config);
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
    await node?.stop();
  });

  describe("attack: a Sui fill held back by the reference gas price until the source can be refunded", () => {
    it("never signs past the ceiling and, once the source is too short, never fills: the user gets the source back", async () => {
      const user = t.user(0);
      const { secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(EVM_WBTC, SUI, AMOUNT), { secretHash });
      const before = {
        solverSui: solverSui(t),
        solverFrom: await solverHolds(t, EVM_WBTC),
        userFrom: await user.balance(EVM_WBTC),
        userSui: suiBalance(t, SUI, user.sui.address),
      };
      const local = t.net.sui.local;
      const ceiling = suiConfig().maxGasPriceMist;
      const normal = local.chain.referenceGasPrice;
      local.setReferenceGasPrice(ceiling * 5n);
      const rpcUrl = evmClients(t, SOURCE_CHAIN).chain.rpcUrl;
      try {
        await user.initiateOnChain(order);
        /** When the fill was last refused at the ceiling, ms; 0 while it was not. */
        const refusedAtCeiling = () =>
          Math.max(
            0,
            ...fillActions(order)
              .fills.filter((a) => a.lastError?.includes("maxGasPriceMist") === true)
              .map((a) => a.updatedMs),
          );
        await waitFor(
          () => refusedAtCeiling() > 0,
          "the fill to be refused at the gas price ceiling",
          60_000,
        );
        // 1 300 blocks left: the source still outlasts the fill's 600 000 ms and the margin; it is tried again.
        await mineBlocks(rpcUrl, SOURCE_BLOCKS_STEP);
        const mined = Date.now();
        await waitFor(() => refusedAtCeiling() > mined, "the fill to be tried again", 60_000);
        expect(fillActions(order).signed).toEqual([]);

        // 1 100 blocks left: shorter than the fill and the margin, in wall-clock time.
        await mineBlocks(rpcUrl, SOURCE_BLOCKS_STEP);
        await waitFor(
          () => lastReason(t, order) === "source_timelock_too_short",
          "the solver to decline the fill",
          60_000,
        );
      } finally {
        local.setReferenceGasPrice(normal);
      }
      // The price comes back down: still no fill, the source is too short.
      await solverRounds(t, 4);
      expect(lastReason(t, order)).toBe("source_timelock_too_short");
      expect(fillActions(order).signed).toEqual([]);

      // The user takes the source back once it is refundable; nothing of the solver's moved.
      await mineBlocks(rpcUrl, SOURCE_TIMELOCK);
      const htlc = evmClients(t, SOURCE_CHAIN).chain.assets.find((a) => a.id === EVM_WBTC)!.htlcAddress;
      await refundOn(t, user, SOURCE_CHAIN, htlc as Address, `0x${order.source_swap.swap_id}` as Hex);
      expect(await user.balance(EVM_WBTC)).toBe(before.userFrom);
      expect(suiBalance(t, SUI, user.sui.address)).toBe(before.userSui);
      expect(await solverHolds(t, EVM_WBTC)).toBe(before.solverFrom);
      expect(solverSui(t)).toBe(before.solverSui);
    }, 240_000);
  });

  describe("attack: the solver's Sui node stuck (checkpoints and clock) at the source's checkpoint while the chain's clock runs towards its refund", () => {
    it("fills nothing from the stuck head nor after it catches up; the user gets the source back", async () => {
      const user = t.user(1);
      const order = await user.createOrder(await user.bestQuote(SUI, EVM_WBTC, 100_000_000_000n));
      const before = {
        solverSui: solverSui(t),
        solverTo: await solverHolds(t, EVM_WBTC),
        userSui: suiBalance(t, SUI, user.sui.address),
        userTo: await user.balance(EVM_WBTC),
      };
      // The solver is down while the user locks the source; its node sticks at the lock's checkpoint.
      const config = adjusted({
        ...t.net.solverConfig,
        service: { ...t.net.solverConfig.service, url: t.proxy.url },
      });
      await t.net.solver!.stop();
      const initiate = await user.initiateSui(order);
      await user.sui.local.waitFor(initiate, true);
      const stuckAt = await node.freeze();
      try {
        t.net.sui.local.advanceClock(BigInt(order.source_swap.timelock) - SOURCE_LEFT_MS);
        await new Promise((resolve) => setTimeout(resolve, MAX_HEAD_AGE_MS + 2_000));
        await t.net.startSolver(config);
        await solverRounds(t, 5);
        expect(node.frozenAnswers).toBeGreaterThan(0);
        expect(journaled(t, order)).toEqual([]);
        expect(lastReason(t, order)).toBe("source_chain_unreadable");
        const stale = t.log.find(
          (l) =>
            l.msg === "RPC endpoint's head is stale; its tips are not used" &&
            l.chain === SUI_CHAIN &&
            l.head === Number(stuckAt),
        );
        expect(stale).toBeDefined();
      } finally {
        node.thaw();
      }
      // The node catches up: the source is too close to its refund for any fill; the solver declines it
      // and gives the user the source back by its instant refund (it is the source's redeemer).
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
      const refundGas = await suiGasOfAction(t, order.order_id, "instant_refund");
      expect(before.solverSui - solverSui(t)).toBe(refundGas);
      expect(before.userSui - suiBalance(t, SUI, user.sui.address)).toBe(await suiGas(t, initiate));
      expect(await solverHolds(t, EVM_WBTC)).toBe(before.solverTo);
      expect(await user.balance(EVM_WBTC)).toBe(before.userTo);
    }, 240_000);
  });
}
